import type { ScheduledAction } from '../domain/items/publishing/schedules.ts';
import { isoTime, type Resource, ref } from './jsonapi.ts';

/**
 * A record's scheduled publication or unpublishing as the client's ScheduledPublication /
 * ScheduledUnpublishing; the part of the record it acts on is shown as it was sent
 * (null: the whole record).
 */
export function presentScheduledAction(row: ScheduledAction): Resource {
  const relationships = { item: { data: ref('item', row.item_id) } };
  if (row.action === 'publish')
    return {
      type: 'scheduled_publication',
      id: String(row.seq),
      attributes: {
        publication_scheduled_at: isoTime(row.due_at),
        selective_publication: row.selection,
      },
      relationships,
    };
  return {
    type: 'scheduled_unpublishing',
    id: String(row.seq),
    attributes: {
      unpublishing_scheduled_at: isoTime(row.due_at),
      content_in_locales: row.selection,
    },
    relationships,
  };
}
