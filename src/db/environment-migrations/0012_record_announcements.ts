import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Every statement on a record row announces its environment where records are kept in
// memory (project migration 0010_record_announcements): the row a record read returns is
// all in `items`, so no other table's change can make a kept row stale.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE TRIGGER records_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${t('items')}
    FOR EACH STATEMENT EXECUTE FUNCTION public.fieldhouse_records_changed()
  `.execute(db);
}
