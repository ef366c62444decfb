import { type Kysely, sql } from 'kysely';

/**
 * Pruning (retention/pruning.ts) deletes events no webhook call names any more: this index
 * finds an event's calls, for that test and for the foreign key's check on each delete.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX webhook_calls_event_idx ON webhook_calls (event_id)`.execute(db);
}
