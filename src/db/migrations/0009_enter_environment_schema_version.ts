import { type Kysely, sql } from 'kysely';

/**
 * `enter_environment` (migration 0008) also returns the environment's schema version, read
 * after the lock is granted: a change holds it for its whole transaction, and no other
 * change to the environment's schema can commit meanwhile, so record writes may take their
 * model's context from the schema cache at that version (domain/items/record-context.ts).
 * A function's result type cannot be replaced in place: it is dropped and made again,
 * in the migration's transaction, so no change sees it missing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION enter_environment(integer, integer);
    CREATE FUNCTION enter_environment(lock_key integer, environment_number integer)
    RETURNS TABLE (
      id text, number integer, schema_name text, is_primary boolean, status text,
      read_only_mode boolean, schema_version bigint, maintenance_mode boolean
    )
    LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    BEGIN
      PERFORM pg_advisory_xact_lock(lock_key, environment_number);
      RETURN QUERY
        UPDATE environments AS e SET last_data_change_at = now()
        WHERE e.number = environment_number
        RETURNING e.id, e.number, e.schema_name, e.is_primary, e.status, e.read_only_mode,
          e.schema_version, (SELECT s.maintenance_mode FROM site AS s);
    END
    $$
  `.execute(db);
}
