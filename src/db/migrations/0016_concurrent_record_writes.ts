import { type Kysely, sql } from 'kysely';

/**
 * Record writes to one environment no longer run one at a time (src/db/README.md):
 *
 * - `enter_records` is `enter_environment` for record changes: it takes the environment's
 *   lock SHARED (schema changes, forks and destroys still take it exclusively, so they
 *   exclude record writes, but record writes do not exclude each other), and it does not
 *   update the environment's row, which every write would otherwise queue on.
 * - The records version is no longer a column of that row. Each backend moves a row of its
 *   own in `environment_records_versions` (its slot: the backend's pid modulo 1024, made on
 *   first use), and the version is the sum of an environment's slots. Every committed
 *   write adds at least one to a slot and no slot ever goes down, so a request that starts
 *   after a commit reads a larger sum, in any process, as with the column before; and two
 *   concurrent writes touch different rows unless their backends share a slot. The slot's
 *   `changed_at` stands in for the row's `last_data_change_at` for record writes.
 * - `enter_records` moves its slot first, before any other lock a record change takes, so
 *   two backends sharing a slot queue there and cannot deadlock on it later.
 *
 * The environment's current records version seeds slot -1, so versions never go back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE environment_records_versions (
      schema_name text NOT NULL REFERENCES environments (schema_name) ON DELETE CASCADE,
      slot integer NOT NULL,
      version bigint NOT NULL,
      changed_at timestamptz NOT NULL,
      PRIMARY KEY (schema_name, slot)
    );
    INSERT INTO environment_records_versions (schema_name, slot, version, changed_at)
      SELECT schema_name, -1, records_version, last_data_change_at FROM environments;
    ALTER TABLE environments DROP COLUMN records_version;
    DROP SEQUENCE records_version_seq;

    CREATE FUNCTION fieldhouse_move_records_version(target text) RETURNS void
    LANGUAGE sql VOLATILE AS $$
      INSERT INTO public.environment_records_versions AS v (schema_name, slot, version, changed_at)
        SELECT e.schema_name, pg_backend_pid() % 1024, 1, now()
        FROM public.environments AS e WHERE e.schema_name = target
      ON CONFLICT (schema_name, slot)
        DO UPDATE SET version = v.version + 1, changed_at = now()
    $$;

    CREATE FUNCTION fieldhouse_records_version(target text) RETURNS bigint
    LANGUAGE sql STABLE AS $$
      SELECT coalesce(sum(version), 0)::bigint FROM public.environment_records_versions
      WHERE schema_name = target
    $$;

    CREATE OR REPLACE FUNCTION fieldhouse_records_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM public.fieldhouse_move_records_version(TG_TABLE_SCHEMA);
      IF current_setting('fieldhouse.announce_record_changes', true) = 'on' THEN
        PERFORM pg_notify(
          'fieldhouse_records',
          TG_TABLE_SCHEMA || ':' || public.fieldhouse_records_version(TG_TABLE_SCHEMA)
        );
      END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION enter_records(lock_key integer, environment_number integer)
    RETURNS TABLE (
      id text, number integer, schema_name text, is_primary boolean, status text,
      read_only_mode boolean, schema_version bigint, maintenance_mode boolean
    )
    LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(lock_key, environment_number);
      PERFORM public.fieldhouse_move_records_version(e.schema_name)
        FROM environments AS e WHERE e.number = environment_number;
      RETURN QUERY
        SELECT e.id, e.number, e.schema_name, e.is_primary, e.status, e.read_only_mode,
          e.schema_version, (SELECT s.maintenance_mode FROM site AS s)
        FROM environments AS e WHERE e.number = environment_number;
    END
    $$;
  `.execute(db);
}
