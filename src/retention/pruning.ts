import { sql } from 'kysely';
import type { Db } from '../db/client.ts';

// The delivery log's retention, apart from delivery itself (claim → send → record): a
// finished webhook call is deleted once it is older than the retention period, with its
// attempts (ON DELETE CASCADE); an event is deleted once no call names it, which makes
// it delivered everywhere it was going (or wanted by no webhook), logged no more, and
// impossible to resend. Each batch is one statement that skips rows another worker's
// batch holds (SKIP LOCKED), so any number of workers prune side by side.

/** Rows one statement deletes at most: each batch is short, however large the backlog. */
export const PRUNE_BATCH = 500;

/**
 * Deletes up to `limit` finished calls (not due again, not leased) that were created,
 * and last sent, more than `retentionDays` ago. A pending or rescheduled call is never
 * deleted, nor a call a resend made due again. Returns how many it deleted.
 */
export async function pruneWebhookCalls(
  db: Db,
  retentionDays: number,
  limit = PRUNE_BATCH,
): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    DELETE FROM webhook_calls WHERE id IN (
      SELECT id FROM webhook_calls
      WHERE created_at < now() - make_interval(days => ${retentionDays})
        AND due_at IS NULL AND lease_owner IS NULL AND status <> 'pending'
        AND (last_sent_at IS NULL OR last_sent_at < now() - make_interval(days => ${retentionDays}))
      ORDER BY created_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id
  `.execute(db);
  return rows.length;
}

/**
 * Deletes up to `limit` events that no webhook call names. An event and its calls commit
 * together, so an event with a call still to deliver always has that call, and is kept.
 * Returns how many it deleted.
 */
export async function pruneDeliveredEvents(db: Db, limit = PRUNE_BATCH): Promise<number> {
  const { rows } = await sql<{ id: string }>`
    DELETE FROM events WHERE id IN (
      SELECT e.id FROM events e
      WHERE NOT EXISTS (SELECT FROM webhook_calls c WHERE c.event_id = e.id)
      ORDER BY e.id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id
  `.execute(db);
  return rows.length;
}
