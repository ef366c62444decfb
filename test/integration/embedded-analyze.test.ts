import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { analyzeChangedTables } from '../../src/db/engine/embedded-analyze.ts';
import { loadScope, qualifiedTable } from '../../src/db/environment-scope.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

/** The primary environment's `items` table as analyzeChangedTables names it. */
async function itemsTable(): Promise<{ schema: string; name: string }> {
  const scope = await loadScope(server.db);
  const schema = scope.environment.schemaName;
  return { schema, name: `${schema}.items` };
}

/** Rows changed since the last analyze, once the statistics show them (they flush late). */
async function changedSinceAnalyze(schema: string, atLeast: number): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const { rows } = await sql<{ changed: string }>`
      SELECT n_mod_since_analyze AS changed FROM pg_stat_user_tables
      WHERE schemaname = ${schema} AND relname = 'items'`.execute(server.db);
    const changed = Number(rows[0]?.changed ?? 0);
    if (changed >= atLeast || attempt === 100) return changed;
    await sleep(100);
  }
}

test('tables changed beyond the autovacuum threshold are analyzed, and only those', async () => {
  const client = server.client();
  const model = await client.itemTypes.create({ name: 'Bulk', api_key: 'bulk' });
  const { schema, name } = await itemsTable();
  await sql`
    INSERT INTO ${qualifiedTable(schema, 'items')}
      (id, item_type_id, item_values, status, current_version_id)
    SELECT 'bulk-' || n, ${model.id}, '{}'::jsonb, 'draft', 'bulk-v' || n
    FROM generate_series(1, 2000) AS n`.execute(server.db);
  assert.ok((await changedSinceAnalyze(schema, 2000)) >= 2000);

  assert.ok((await analyzeChangedTables(server.db)).includes(name));
  const { rows } = await sql<{ estimate: number }>`
    SELECT reltuples AS estimate FROM pg_class
    WHERE oid = ${`${schema}.items`}::regclass`.execute(server.db);
  assert.equal(Number(rows[0]?.estimate), 2000, 'the planner now knows the row count');
  assert.ok(!(await analyzeChangedTables(server.db)).includes(name), 'nothing changed since');
});

test('a table never analyzed is analyzed even when its activity counts start from zero', async () => {
  // PGlite keeps no activity counts across a restart: a reset stands for one here.
  const client = server.client();
  const model = await client.itemTypes.create({ name: 'Reopened', api_key: 'reopened' });
  const { schema, name } = await itemsTable();
  await sql`
    INSERT INTO ${qualifiedTable(schema, 'items')}
      (id, item_type_id, item_values, status, current_version_id)
    SELECT 'reopened-' || n, ${model.id}, '{}'::jsonb, 'draft', 'reopened-v' || n
    FROM generate_series(1, 300) AS n`.execute(server.db);
  // Whatever an earlier test analyzed, the catalog forgets it, as for a table never analyzed.
  await sql`UPDATE pg_class SET reltuples = -1 WHERE oid = ${name}::regclass`.execute(server.db);
  await sql`SELECT pg_stat_reset()`.execute(server.db);

  assert.ok((await analyzeChangedTables(server.db)).includes(name));
  const { rows } = await sql<{ estimate: number }>`
    SELECT reltuples AS estimate FROM pg_class WHERE oid = ${name}::regclass`.execute(server.db);
  assert.ok(Number(rows[0]?.estimate) >= 300, 'the planner now knows the row count');
  // Every table, empty ones included, is analyzed once, not on every round.
  assert.deepEqual(await analyzeChangedTables(server.db), []);
});
