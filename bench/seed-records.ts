import { sql } from 'kysely';
import { analyzeChangedTables } from '../src/db/engine/embedded-analyze.ts';
import { loadScope, qualifiedTable } from '../src/db/environment-scope.ts';
import type { TestServer } from '../test/support/server.ts';

/**
 * `rows` published records of a model with one text field (`<label> n`, or with
 * `distinct`, `<label> (n mod distinct)`: values shared by many records, as a category's),
 * with their first versions, written with SQL: ids `<prefix>-n`, versions `<prefix>v-n`
 * (prefix `seed` unless given, so that a model can be seeded twice). Much faster than the
 * API for the large environments the benches measure in.
 */
export async function seedPublishedRecords(
  server: TestServer,
  modelId: string,
  rows: number,
  label: string,
  options: { distinct?: number; prefix?: string } = {},
): Promise<void> {
  const prefix = options.prefix ?? 'seed';
  const suffix = options.distinct === undefined ? sql`n` : sql`n % ${options.distinct}::int`;
  const scope = await loadScope(server.db);
  const schema = scope.environment.schemaName;
  const field = (
    await scope.db
      .selectFrom('fields')
      .select('id')
      .where('item_type_id', '=', modelId)
      .executeTakeFirstOrThrow()
  ).id;
  await sql`
    INSERT INTO ${qualifiedTable(schema, 'items')}
      (id, item_type_id, item_values, published_values, status, current_version_id,
       published_version_id)
    SELECT ${prefix}::text || '-' || n, ${modelId},
      jsonb_build_object(${field}::text, ${label} || ' ' || ${suffix}),
      jsonb_build_object(${field}::text, ${label} || ' ' || ${suffix}), 'published',
      ${prefix}::text || 'v-' || n, ${prefix}::text || 'v-' || n
    FROM generate_series(1, ${rows}::int) AS n`.execute(server.db);
  await sql`
    INSERT INTO ${qualifiedTable(schema, 'item_versions')} (id, item_id, item_type_id, item_values)
    SELECT current_version_id, id, item_type_id, item_values
    FROM ${qualifiedTable(schema, 'items')} WHERE starts_with(id, ${`${prefix}-`})`.execute(
    server.db,
  );
  // What the embedded engine's periodic analyze (and PostgreSQL's autovacuum) does within
  // a minute of a bulk load: without statistics, lists by model are planned for ~180 rows.
  await analyzeChangedTables(server.db);
}
