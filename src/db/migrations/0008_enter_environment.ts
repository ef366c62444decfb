import { type Kysely, sql } from 'kysely';

/**
 * A change to an environment begins by taking the environment's lock, then touching
 * its row and reading what decides whether it may write (environment-scope.ts). One
 * function does both in one statement: a VOLATILE function's statements each take a
 * fresh snapshot, so the row and the site are read after the lock is granted, as two
 * statements would read them (within one plain statement, the snapshot would predate
 * the lock). The lock's key is an argument, so the constant stays in one place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION enter_environment(lock_key integer, environment_number integer)
    RETURNS TABLE (
      id text, number integer, schema_name text, is_primary boolean, status text,
      read_only_mode boolean, maintenance_mode boolean
    )
    LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    BEGIN
      PERFORM pg_advisory_xact_lock(lock_key, environment_number);
      RETURN QUERY
        UPDATE environments AS e SET last_data_change_at = now()
        WHERE e.number = environment_number
        RETURNING e.id, e.number, e.schema_name, e.is_primary, e.status, e.read_only_mode,
          (SELECT s.maintenance_mode FROM site AS s);
    END
    $$
  `.execute(db);
}
