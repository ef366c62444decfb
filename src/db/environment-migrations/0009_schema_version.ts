import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// The tables whose rows make up what the schema cache holds (domain/caches): models,
// fields, fieldsets and the locales of the site settings. Any statement on them moves the
// environment's schema_version (project migration 0007_cache_versions), in the statement's
// own transaction, so the new version is committed exactly when the change is.
const SCHEMA_TABLES = ['item_types', 'fields', 'fieldsets', 'site_settings'] as const;

export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  for (const table of SCHEMA_TABLES) {
    await sql`
      CREATE TRIGGER schema_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${t(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION public.fieldhouse_schema_changed()
    `.execute(db);
  }
}
