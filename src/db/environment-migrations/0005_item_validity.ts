import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Whether a record's current and published values satisfy its model's schema as it is now
// (meta.is_valid, is_current_version_valid, is_published_version_valid). A write validates,
// so a saved record is valid; schema changes (validators, field types, locales) are not
// refused for the records they break but recompute these flags.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    ALTER TABLE ${t('items')}
      ADD COLUMN current_valid boolean NOT NULL DEFAULT true,
      ADD COLUMN published_valid boolean NOT NULL DEFAULT true;
  `.execute(db);
}
