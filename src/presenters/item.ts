import type { RecordView } from '../domain/items/record-view.ts';
import type { BulkResult } from '../domain/items/writes/bulk.ts';
import { presentedAttributes } from './attributes.ts';
import { nestedValues } from './item-blocks.ts';
import { isoTime, type Resource, ref } from './jsonapi.ts';

/**
 * A record as the CMA gives it: values keyed by api_key (stored by field id), every field
 * of the model present, empty as its type is when the record holds nothing for it; its
 * blocks whole when the view holds them inline.
 */
export function presentItem(view: RecordView): Resource {
  const { row, model, fields, blocks } = view;
  const values = blocks ? nestedValues(fields, view.values, blocks) : view.values;
  const attributes = presentedAttributes(fields, values);
  if (model.tree) attributes.parent_id = row.parent_id;
  if (model.tree || model.sortable) attributes.position = row.position;
  const published = row.published_version_id !== null;
  return {
    type: 'item',
    id: row.id,
    attributes,
    relationships: {
      item_type: { data: ref('item_type', row.item_type_id) },
      creator: { data: row.creator_id === null ? null : ref('access_token', row.creator_id) },
    },
    meta: {
      created_at: isoTime(row.created_at),
      updated_at: isoTime(row.updated_at),
      published_at: isoTime(row.published_at),
      first_published_at: isoTime(row.first_published_at),
      publication_scheduled_at: isoTime(row.publication_scheduled_at),
      unpublishing_scheduled_at: isoTime(row.unpublishing_scheduled_at),
      status: row.status,
      is_valid: row.current_valid,
      is_current_version_valid: row.current_valid,
      is_published_version_valid: published ? row.published_valid : null,
      current_version: row.current_version_id,
      stage: row.stage,
      has_children: view.hasChildren,
    },
  };
}

/** A bulk job's result: the records changed, and the count of those that could not be. */
export function presentBulkResult({ records, failed }: BulkResult) {
  return {
    data: records.map(presentItem),
    meta: { successful: records.length, failed },
  };
}
