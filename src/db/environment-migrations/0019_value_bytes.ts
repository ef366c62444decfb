import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

/**
 * Each record's and block's values measured as a list measures them before reading a page
 * (`octet_length` of the values as JSON text, page-bytes.ts): kept by the database with
 * every write, so admitting a page reads a column instead of serializing every value of
 * the page on each list. Generated columns: no write path can forget them, and a fork
 * (environment-copy.ts) leaves them to the database.
 */
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    ALTER TABLE ${t('items')}
      ADD COLUMN values_bytes integer
        GENERATED ALWAYS AS (octet_length(item_values::text)) STORED,
      ADD COLUMN published_bytes integer
        GENERATED ALWAYS AS (octet_length(published_values::text)) STORED;
    ALTER TABLE ${t('blocks')}
      ADD COLUMN values_bytes integer
        GENERATED ALWAYS AS (octet_length(item_values::text)) STORED;
  `.execute(db);
}
