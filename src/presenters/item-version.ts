import { blockIdValues } from '../domain/items/blocks/block-values.ts';
import type { VersionView } from '../domain/items/versions/versions.ts';
import { presentedAttributes } from './attributes.ts';
import { isoTime, type Resource, ref } from './jsonapi.ts';

/**
 * A saved version of a record (the client's ItemVersion): its values by api_key, and
 * whether they pass the schema as it is now.
 */
export function presentItemVersion({ version, item, fields, isValid }: VersionView): Resource {
  // A version holds its blocks inline (a snapshot); it presents them by id like a record.
  const values = blockIdValues(fields, version.item_values);
  const attributes = presentedAttributes(fields, values);
  return {
    type: 'item_version',
    id: version.id,
    attributes,
    relationships: {
      item_type: { data: ref('item_type', version.item_type_id) },
      item: { data: ref('item', version.item_id) },
      editor: { data: version.editor_id === null ? null : ref('access_token', version.editor_id) },
    },
    meta: {
      created_at: isoTime(version.created_at),
      is_valid: isValid,
      is_published: version.id === item.published_version_id,
      published_from: null,
      published_until: null,
      is_current: version.id === item.current_version_id,
    },
  };
}
