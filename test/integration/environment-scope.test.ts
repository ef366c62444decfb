import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { ENVIRONMENT_TABLES } from '../../src/db/environment-scope.ts';
import { useTestServer } from '../support/server.ts';

// Environment tables live only in environment schemas, and only the scope module (and
// the DDL that creates them) may name them in raw SQL: everything else goes through
// scoped Kysely handles, which qualify every table with the environment's schema.

const server = useTestServer();

test('no environment table exists in the public schema', async () => {
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_name = ANY(${[...ENVIRONMENT_TABLES, 'environment_migrations']})
  `.execute(server.db);
  assert.deepEqual(rows, []);
  const primary = await server.db
    .selectFrom('environments')
    .select('schema_name')
    .where('is_primary', '=', true)
    .executeTakeFirstOrThrow();
  const inPrimary = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = ${primary.schema_name}
  `.execute(server.db);
  const names = inPrimary.rows.map((row) => row.table_name);
  for (const table of ENVIRONMENT_TABLES) assert.ok(names.includes(table), `${table} is there`);
});

// Files allowed to name environment tables in raw SQL: the scope module, the fork
// copier built on it, and the DDL (environment migrations; project migrations 0001
// created the tables before environments existed and 0004 moved them).
const ALLOWED = [
  join('src', 'db', 'environment-scope.ts'),
  join('src', 'db', 'environment-copy.ts'),
  join('src', 'db', 'environment-migrations'),
  join('src', 'db', 'migrations', '0001_schema.ts'),
  join('src', 'db', 'migrations', '0004_environments.ts'),
];

/** Raw SQL in a file: tagged `sql` templates and `sql.table`/`sql.id`/`sql.raw` calls. */
function rawSqlFragments(text: string): string[] {
  const templates = [...text.matchAll(/\bsql(?:<[^`]*?>)?`([^`]*)`/g)].map((m) => m[1] ?? '');
  const calls = [...text.matchAll(/\bsql\.(?:table|id|raw|ref)\(([^)]*)\)/g)].map(
    (m) => m[1] ?? '',
  );
  // `qualifiedTable(schema, 'table')` names its environment explicitly (the sanctioned way
  // for raw SQL, e.g. a probe across every environment's schema): not a search_path lean.
  return [...templates, ...calls].map((fragment) =>
    fragment.replace(/\$\{qualifiedTable\([^)]*\)\}/g, '<qualified>'),
  );
}

const TABLE_PATTERN = new RegExp(
  // A table after a keyword, or quoted (sql.table('fields')); a JSON key (->'item_types') is not one.
  // A column qualified by a table name (fields.validators) leans on search_path, too.
  `(?:\\b(?:from|join|update|into|table)\\s+|(?<!->\\s*)['"])(?:${ENVIRONMENT_TABLES.join('|')})\\b|\\b(?:${ENVIRONMENT_TABLES.join('|')})\\.[a-z_]`,
  'i',
);

function offenders(dir: string): string[] {
  const found: string[] = [];
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, file);
    if (!path.endsWith('.ts') || ALLOWED.some((allowed) => path.startsWith(allowed))) continue;
    for (const fragment of rawSqlFragments(readFileSync(path, 'utf8'))) {
      if (TABLE_PATTERN.test(fragment)) found.push(`${path}: ${fragment.trim().slice(0, 80)}`);
    }
  }
  return found;
}

test('no raw SQL outside the scope module names an environment table', () => {
  assert.deepEqual(offenders('src'), []);
});

test('the scan finds a raw query on an environment table', () => {
  const fragments = rawSqlFragments(
    "await sql`UPDATE fields SET position = 1`.execute(db); sql.table('item_types'); sql`jsonb_each(fields.validators)`; sql`v->'item_types'`" +
      // A table named through qualifiedTable is explicit, not a search_path lean.
      '; sql`SELECT 1 FROM $' +
      "{qualifiedTable(schema, 'items')}`",
  );
  assert.equal(fragments.filter((fragment) => TABLE_PATTERN.test(fragment)).length, 3);
});
