import { type Kysely, sql } from 'kysely';

/**
 * `environments.records_version`, moved by every statement that writes an environment's
 * records, as `schema_version` is by schema writes (migration 0007): the trigger of
 * environment migration 0012_record_announcements now moves it, in the statement's own
 * transaction, so the new version commits exactly when the write does, raw SQL included.
 * A request reads it with its token, and records read by id are kept per version
 * (domain/caches/record-cache.ts) on every engine: on PostgreSQL a record written
 * through one process is read afresh by the next request to any other.
 *
 * Every change to an environment already holds its lock and updates its row
 * (enter_environment), so moving the version there adds no wait. As with the schema
 * version, only a ready environment's version moves (a fork writes into a `creating`
 * one). Where record writes are announced (the embedded engine), the announcement now
 * carries the version: `env_<n>:<version>`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE SEQUENCE records_version_seq;
    ALTER TABLE environments
      ADD COLUMN records_version bigint NOT NULL DEFAULT nextval('records_version_seq');

    CREATE OR REPLACE FUNCTION fieldhouse_records_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      moved_to bigint;
    BEGIN
      UPDATE public.environments
        SET records_version = nextval('public.records_version_seq')
        WHERE schema_name = TG_TABLE_SCHEMA AND status = 'ready'
        RETURNING records_version INTO moved_to;
      IF current_setting('fieldhouse.announce_record_changes', true) = 'on' THEN
        PERFORM pg_notify(
          'fieldhouse_records',
          CASE WHEN moved_to IS NULL THEN TG_TABLE_SCHEMA ELSE TG_TABLE_SCHEMA || ':' || moved_to END
        );
      END IF;
      RETURN NULL;
    END $$;
  `.execute(db);
}
