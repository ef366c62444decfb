import type { Resource } from './jsonapi.ts';

/** An upload tag or smart tag: its id is its name. */
export function presentUploadTag(type: 'upload_tag' | 'upload_smart_tag', name: string): Resource {
  return { type, id: name, attributes: { name } };
}
