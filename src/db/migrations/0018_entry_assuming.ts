import { type Kysely, sql } from 'kysely';

/**
 * `enter_environment` and `enter_records` answer the environment's row, and the change
 * checks it before it sends anything else: a round trip of its own. The `_assuming`
 * variants take what the change assumes instead (the environment's id, whether it is
 * the primary, and the schema version its request read with its token) and check the row
 * themselves, after the lock, raising when a change may not go on:
 *
 * | SQLSTATE | when |
 * | --- | --- |
 * | FH001 | the environment is gone, or being destroyed |
 * | FH002 | it is not ready (a fork still copying into it) |
 * | FH003 | it is read-only while it is being forked |
 * | FH004 | it is the primary and the site is in maintenance mode |
 * | FH005 | it is not as assumed: renamed, promoted, or its schema changed since the request read it |
 *
 * They answer nothing, so a change can send one with its first statement (held,
 * db/query/pipelining-dialect.ts): a failure stops that run before the statement, and the
 * change is rolled back. On FH005 the change runs again from the plain entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION fieldhouse_check_entry(
      environment_number integer, assumed_id text, assumed_primary boolean,
      assumed_schema_version bigint
    ) RETURNS void
    LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      e public.environments%ROWTYPE;
    BEGIN
      SELECT * INTO e FROM public.environments AS x WHERE x.number = environment_number;
      IF NOT FOUND OR e.status = 'destroying' THEN
        RAISE EXCEPTION 'the environment is gone' USING ERRCODE = 'FH001';
      END IF;
      IF e.status <> 'ready' THEN
        RAISE EXCEPTION 'the environment is not ready' USING ERRCODE = 'FH002';
      END IF;
      IF e.read_only_mode THEN
        RAISE EXCEPTION 'the environment is read-only' USING ERRCODE = 'FH003';
      END IF;
      IF e.is_primary AND (SELECT s.maintenance_mode FROM public.site AS s) THEN
        RAISE EXCEPTION 'the site is in maintenance mode' USING ERRCODE = 'FH004';
      END IF;
      IF e.id <> assumed_id OR e.is_primary <> assumed_primary
        OR e.schema_version <> assumed_schema_version THEN
        RAISE EXCEPTION 'the environment moved since the request read it' USING ERRCODE = 'FH005';
      END IF;
    END
    $$;

    CREATE FUNCTION enter_environment_assuming(
      lock_key integer, environment_number integer, assumed_id text, assumed_primary boolean,
      assumed_schema_version bigint
    ) RETURNS void
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(lock_key, environment_number);
      PERFORM fieldhouse_check_entry(
        environment_number, assumed_id, assumed_primary, assumed_schema_version);
      UPDATE public.environments SET last_data_change_at = now()
        WHERE number = environment_number;
    END
    $$;

    CREATE FUNCTION enter_records_assuming(
      lock_key integer, environment_number integer, assumed_id text, assumed_primary boolean,
      assumed_schema_version bigint
    ) RETURNS void
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(lock_key, environment_number);
      PERFORM fieldhouse_check_entry(
        environment_number, assumed_id, assumed_primary, assumed_schema_version);
      INSERT INTO public.environment_records_versions AS v (schema_name, slot, version, changed_at)
        SELECT e.schema_name, pg_backend_pid() % 1024, 1, now()
        FROM public.environments AS e WHERE e.number = environment_number
      ON CONFLICT (schema_name, slot)
        DO UPDATE SET version = v.version + 1, changed_at = now();
      PERFORM set_config('fieldhouse.records_entered', e.schema_name, true)
        FROM public.environments AS e WHERE e.number = environment_number;
    END
    $$;
  `.execute(db);
}
