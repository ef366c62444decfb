import { type RawBuilder, sql } from 'kysely';
import { webhookWants } from './matching.ts';

/**
 * The body of a CTE that queues one delivery (a pending webhook_calls row, due now) per
 * enabled webhook that wants the event the CTE `eventCte` inserted (webhookWants): in the
 * event's own statement, so the calls commit with the change and its event, and a change
 * sends no statement more for its webhooks. Each queued call answers a row.
 */
export function queuedCalls(
  eventCte: string,
  entityType: string,
  eventType: string,
  filterKeys: string,
): RawBuilder<unknown> {
  return sql`INSERT INTO webhook_calls (webhook_id, event_id, entity_type, event_type)
    SELECT w.id, e.id, ${entityType}, ${eventType}
    FROM webhooks AS w, ${sql.table(eventCte)} AS e
    WHERE w.enabled AND ${webhookWants(sql.ref('w.events'), entityType, eventType, filterKeys)}
    RETURNING 1`;
}
