import { type Kysely, sql } from 'kysely';
import { migrateEnvironmentSchema } from '../environment-migrate.ts';
import { qualifiedTable, schemaNameOf } from '../environment-scope.ts';
import type { Trx } from '../transaction.ts';

// The tables 0001 created in `public` that belong to an environment.
const MOVED = ['workflows', 'item_types', 'fieldsets', 'fields', 'menu_items', 'schema_menu_items'];

const PRIMARY_NUMBER = 1;

/**
 * Sandbox environments: each environment gets a schema of its own. The primary's
 * tables move out of `public` into `env_1` (SET SCHEMA keeps rows, indexes, constraint
 * names and identity sequences), and the site's per-environment settings leave the
 * project-wide `site` row for the environment's `site_settings`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const trx = db as unknown as Trx;
  const schema = schemaNameOf(PRIMARY_NUMBER);
  await sql`
    CREATE SEQUENCE environment_number_seq START ${sql.lit(PRIMARY_NUMBER + 1)};
    ALTER TABLE environments
      ADD COLUMN number integer UNIQUE,
      ADD COLUMN schema_name text UNIQUE,
      ADD COLUMN status text NOT NULL DEFAULT 'ready',
      ADD COLUMN forked_from text,
      ADD COLUMN read_only_mode boolean NOT NULL DEFAULT false,
      ADD COLUMN fork_completion_percentage integer NOT NULL DEFAULT 100;
    -- Two promotes can never leave two primaries.
    CREATE UNIQUE INDEX environments_primary_key ON environments ((true)) WHERE is_primary;
    ALTER TABLE site ADD COLUMN maintenance_mode boolean NOT NULL DEFAULT false;
    -- Recorded at the event: a later promote or rename does not change what happened.
    ALTER TABLE events ADD COLUMN is_environment_primary boolean;
  `.execute(trx);
  await sql`
    INSERT INTO environments (id, is_primary) VALUES ('main', true) ON CONFLICT (id) DO NOTHING
  `.execute(trx);
  await sql`
    UPDATE environments SET number = ${sql.lit(PRIMARY_NUMBER)}, schema_name = ${schema}
    WHERE is_primary
  `.execute(trx);
  await sql`
    ALTER TABLE environments ALTER COLUMN number SET NOT NULL,
      ALTER COLUMN schema_name SET NOT NULL
  `.execute(trx);

  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(trx);
  for (const table of MOVED) {
    await sql`ALTER TABLE ${sql.table(table)} SET SCHEMA ${sql.id(schema)}`.execute(trx);
  }
  // The moved tables are what environment migration 0001 creates; 0002–0007 run now,
  // later ones at the end of migrateToLatest, after the project migrations they may need
  // (0009_schema_version needs 0007_cache_versions' trigger function).
  await migrateEnvironmentSchema(trx, schema, ['0001_schema'], '0007_blocks');

  await sql`
    INSERT INTO ${qualifiedTable(schema, 'site_settings')}
      (id, locales, timezone, no_index, favicon, theme, global_seo, last_data_change_at)
    SELECT 1, locales, timezone, no_index, favicon, theme, global_seo, last_data_change_at
    FROM site
  `.execute(trx);
  await sql`
    ALTER TABLE site
      DROP COLUMN locales, DROP COLUMN timezone, DROP COLUMN no_index,
      DROP COLUMN favicon, DROP COLUMN theme, DROP COLUMN global_seo
  `.execute(trx);
}
