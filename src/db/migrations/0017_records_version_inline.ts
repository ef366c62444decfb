import { type Kysely, sql } from 'kysely';

/**
 * Every record write called `fieldhouse_move_records_version` twice (from `enter_records`
 * and from the records trigger), and PostgreSQL plans a SQL function's body on each call:
 * about 0.1 ms of planning per call, on every write. The same statements now sit in the
 * PL/pgSQL bodies themselves, whose plans a backend keeps once made. What they do is
 * unchanged (0016_concurrent_record_writes explains the slots); the SQL functions stay
 * for readers that call them once (tests, the command line).
 *
 * And the trigger no longer moves the slot again in a transaction that entered through
 * `enter_records`: that transaction moved it already, and what readers need is only that
 * the sum is larger once the writes commit, which one move in the transaction gives.
 * `enter_records` names its environment's schema in a transaction-local setting, which the
 * trigger compares with the schema it fires in; other writers (raw SQL, copies) still move
 * it through the trigger.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION fieldhouse_records_changed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('fieldhouse.records_entered', true) IS DISTINCT FROM TG_TABLE_SCHEMA THEN
        INSERT INTO public.environment_records_versions AS v (schema_name, slot, version, changed_at)
          SELECT e.schema_name, pg_backend_pid() % 1024, 1, now()
          FROM public.environments AS e WHERE e.schema_name = TG_TABLE_SCHEMA
        ON CONFLICT (schema_name, slot)
          DO UPDATE SET version = v.version + 1, changed_at = now();
      END IF;
      IF current_setting('fieldhouse.announce_record_changes', true) = 'on' THEN
        PERFORM pg_notify(
          'fieldhouse_records',
          TG_TABLE_SCHEMA || ':' || (
            SELECT coalesce(sum(s.version), 0) FROM public.environment_records_versions AS s
            WHERE s.schema_name = TG_TABLE_SCHEMA
          )
        );
      END IF;
      RETURN NULL;
    END $$;

    CREATE OR REPLACE FUNCTION enter_records(lock_key integer, environment_number integer)
    RETURNS TABLE (
      id text, number integer, schema_name text, is_primary boolean, status text,
      read_only_mode boolean, schema_version bigint, maintenance_mode boolean
    )
    LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(lock_key, environment_number);
      INSERT INTO public.environment_records_versions AS v (schema_name, slot, version, changed_at)
        SELECT e.schema_name, pg_backend_pid() % 1024, 1, now()
        FROM public.environments AS e WHERE e.number = environment_number
      ON CONFLICT (schema_name, slot)
        DO UPDATE SET version = v.version + 1, changed_at = now();
      PERFORM set_config('fieldhouse.records_entered', e.schema_name, true)
        FROM environments AS e WHERE e.number = environment_number;
      RETURN QUERY
        SELECT e.id, e.number, e.schema_name, e.is_primary, e.status, e.read_only_mode,
          e.schema_version, (SELECT s.maintenance_mode FROM site AS s)
        FROM environments AS e WHERE e.number = environment_number;
    END
    $$;
  `.execute(db);
}
