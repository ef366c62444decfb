import { type Kysely, sql } from 'kysely';

/**
 * What stamps a record row's version (environment migration 0020_record_stamps): one
 * sequence for the whole database, so a stamp is never given twice, whatever environment
 * a row is in or is copied to, and never again after a rollback; and the row trigger that
 * gives an updated row a new one. Every environment's `items.stamp` takes its first value
 * from the same sequence.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE SEQUENCE fieldhouse_record_stamps;
    CREATE FUNCTION fieldhouse_restamp_record() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.stamp := nextval('public.fieldhouse_record_stamps');
      RETURN NEW;
    END $$;
  `.execute(db);
}
