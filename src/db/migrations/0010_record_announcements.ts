import { type Kysely, sql } from 'kysely';

/**
 * What lets the embedded engine keep records read by id in memory (domain/caches/
 * record-cache.ts): a statement that writes an environment's `items` announces the
 * environment's schema on the `fieldhouse_records` channel (the triggers of environment
 * migration 0012_record_announcements), and the engine delivers NOTIFY to its own process
 * at commit, which drops what it kept of that environment.
 *
 * Only where `fieldhouse.announce_record_changes` is on, which the embedded engine sets in
 * the configuration it starts with (db/engine/embedded.ts). On PostgreSQL no process keeps
 * records, nobody listens, and a NOTIFY per record write would only serialize commits
 * (PostgreSQL takes a global lock to queue a transaction's notifications).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION fieldhouse_records_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('fieldhouse.announce_record_changes', true) = 'on' THEN
        PERFORM pg_notify('fieldhouse_records', TG_TABLE_SCHEMA);
      END IF;
      RETURN NULL;
    END $$;
  `.execute(db);
}
