import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

/**
 * GIN indexes of the upload ids record values name (`public.fieldhouse_upload_ids`, project
 * migration 0015): current values of records and of their blocks, and published values
 * (which hold their blocks inline). `GET /uploads/:id/references` reads through them, so
 * its cost follows the records that name the upload, not the size of the environment.
 */
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE INDEX items_upload_ids_idx ON ${t('items')}
      USING gin (public.fieldhouse_upload_ids(item_values));
    CREATE INDEX items_published_upload_ids_idx ON ${t('items')}
      USING gin (public.fieldhouse_upload_ids(published_values))
      WHERE published_values IS NOT NULL;
    CREATE INDEX blocks_upload_ids_idx ON ${t('blocks')}
      USING gin (public.fieldhouse_upload_ids(item_values));
  `.execute(db);
}
