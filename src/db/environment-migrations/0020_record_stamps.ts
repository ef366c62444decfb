import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

/**
 * Each record row carries a stamp that names its version: a new one from the database's
 * sequence (project migration 0020_record_stamps) when the row is inserted, and again on
 * every update, by a row trigger, so raw SQL moves it too. Two reads of a record that
 * give the same stamp gave the same row: a list keeps the rows it read by their stamps
 * and, on the next list, reads only those whose stamp moved (domain/caches/README.md).
 * A fork copies stamps with the rows it copies, which are the same versions.
 */
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    ALTER TABLE ${t('items')}
      ADD COLUMN stamp bigint NOT NULL DEFAULT nextval('public.fieldhouse_record_stamps');
    CREATE TRIGGER restamp BEFORE UPDATE ON ${t('items')}
      FOR EACH ROW EXECUTE FUNCTION public.fieldhouse_restamp_record();
  `.execute(db);
}
