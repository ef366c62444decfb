import type { UploadFilterRow } from '../db/schema.ts';
import type { Resource } from './jsonapi.ts';

export function presentUploadFilter(row: UploadFilterRow): Resource {
  return {
    type: 'upload_filter',
    id: row.id,
    attributes: { name: row.name, filter: row.filter, shared: row.shared },
  };
}
