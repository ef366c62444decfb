import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// A list filtered by a field's text or sorted by a field's value makes an index on that
// value (src/domain/items/query/value-indexes.ts). An index may only change how fast a
// list is: these compare each list with its indexes against the same list after they are
// dropped (the process still believes them there, so it runs the statement without), and
// check that schema changes drop the indexes they make useless.
describe('value indexes', () => {
  const server = useTestServer();

  async function valueIndexes(): Promise<string[]> {
    const found = await sql<{ name: string }>`
      SELECT indexname AS name FROM pg_indexes
      WHERE tablename = 'items' AND starts_with(indexname, 'iv_') ORDER BY 1
    `.execute(server.db);
    return found.rows.map((row) => row.name);
  }

  async function dropValueIndexes(): Promise<void> {
    const found = await sql<{ schema: string; name: string }>`
      SELECT schemaname AS schema, indexname AS name FROM pg_indexes
      WHERE tablename = 'items' AND starts_with(indexname, 'iv_')
    `.execute(server.db);
    for (const row of found.rows)
      await sql`DROP INDEX ${sql.table(`${row.schema}.${row.name}`)}`.execute(server.db);
  }

  /** A model with a plain and a localized string, an integer, and records covering nulls, ties, drafts and published values. */
  async function catalogue() {
    const client = server.client();
    await client.site.update({ locales: ['en', 'it'] });
    const model = await buildModel(client, { draft_mode_active: true });
    const kind = await buildField(client, { itemTypeId: model.id, api_key: 'kind' });
    const name = await buildField(client, {
      itemTypeId: model.id,
      api_key: 'name',
      localized: true,
    });
    const rank = await buildField(client, {
      itemTypeId: model.id,
      api_key: 'rank',
      field_type: 'integer',
    });
    const rows = [
      { kind: 'a', name: { en: 'x', it: 'y' }, rank: 2 },
      { kind: 'b', name: { en: 'y', it: 'x' }, rank: 1 },
      { kind: 'a', name: { en: 'x', it: null }, rank: null },
      { kind: null, name: { en: null, it: 'x' }, rank: 2 },
      { kind: 'a', name: { en: 'y', it: 'y' }, rank: 3 },
      { kind: 'c', name: { en: 'x', it: 'x' }, rank: null },
    ];
    const ids: string[] = [];
    for (const attributes of rows) {
      const record = await client.items.create({ item_type: itemTypeRef(model.id), ...attributes });
      ids.push(record.id);
    }
    // Published values that differ from the current ones: published, then changed.
    for (const id of ids.slice(0, 4)) await client.items.publish(id);
    await client.items.update(ids[0] ?? '', { kind: 'b' });
    await client.items.update(ids[1] ?? '', { kind: 'a', rank: 5 });
    return { model, fields: { kind, name, rank }, ids };
  }

  test('a list reads the same records, in the same order, with its value indexes and without', async () => {
    const client = server.client();
    const { model } = await catalogue();
    const type = model.id;
    const lists = [
      { filter: { type, fields: { kind: { eq: 'a' } } } },
      { filter: { type, fields: { kind: { in: ['a', 'c'] } } }, order_by: 'rank_DESC' },
      { filter: { type, fields: { kind: { eq: 'a' } } }, version: 'published' },
      { filter: { type, fields: { name: { eq: 'x' } } } },
      { filter: { type, fields: { name: { eq: 'x' } } }, locale: 'it' },
      { filter: { type, fields: { name: { in: ['x'] } } }, locale: 'it', version: 'published' },
      { filter: { type }, order_by: 'rank_ASC' },
      { filter: { type }, order_by: 'rank_DESC' },
      { filter: { type }, order_by: 'name_ASC,rank_DESC', locale: 'it' },
      { filter: { type, fields: { kind: { neq: 'a' } } }, order_by: 'kind_DESC' },
    ] as const;
    const read = async () => {
      const pages = [];
      for (const params of lists) {
        const page = await client.items.rawList({ ...params, page: { limit: 3 } } as never);
        const rest = await client.items.rawList({
          ...params,
          page: { limit: 100, offset: 3 },
        } as never);
        pages.push({
          ids: [...page.data, ...rest.data].map((record) => record.id),
          total: page.meta.total_count,
          values: page.data.map((record) => record.attributes),
        });
      }
      return pages;
    };
    const indexed = await read();
    const names = await valueIndexes();
    // Text indexes for the filters (current and published; `name` in each locale asked),
    // value indexes for the orders (a localized field's in the locale asked).
    assert.equal(names.filter((index) => index.startsWith('iv_tc_')).length, 3, names.join());
    assert.equal(names.filter((index) => index.startsWith('iv_tp_')).length, 2, names.join());
    assert.equal(names.filter((index) => index.startsWith('iv_jc_')).length, 3, names.join());
    assert.ok(names.some((index) => index.endsWith('@it')));
    await dropValueIndexes();
    const scanned = await read();
    assert.deepEqual(indexed, scanned);
    assert.deepEqual(
      indexed.map((page) => page.total),
      [3, 4, 2, 3, 3, 2, 6, 6, 6, 3],
    );
  });

  test('the statement a filtered list sends can be answered from its index', async () => {
    const client = server.client();
    const model = await buildModel(client);
    const field = await buildField(client, { itemTypeId: model.id, api_key: 'code' });
    await client.items.create({ item_type: itemTypeRef(model.id), code: 'k1' });
    const page = await client.items.rawList({
      filter: { type: model.id, fields: { code: { eq: 'k1' } } },
    });
    assert.equal(page.meta.total_count, 1);
    const [schema] = (
      await sql<{ schema: string }>`
        SELECT schemaname AS schema FROM pg_indexes WHERE indexname = ${`iv_tc_${field.id}`}
      `.execute(server.db)
    ).rows;
    assert.ok(schema, 'the list made its index');
    // The filter's own shape, parameters bound as the list binds them: with sequential
    // scans priced out, the planner reaches for the index only if its expression matches.
    const plan = await server.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const explained = await sql<{ 'QUERY PLAN': string }>`
        EXPLAIN SELECT id FROM ${sql.table(`${schema.schema}.items`)}
        WHERE item_type_id IN (${model.id}) AND (item_values #>> ${[field.id]}) = ${'k1'}
      `.execute(trx);
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    assert.match(plan, new RegExp(`iv_tc_${field.id}`));
  });

  test('schema changes drop the indexes they make useless', async () => {
    const client = server.client();
    const { model, fields } = await catalogue();
    const type = model.id;
    const indexesOf = async (fieldId: string) =>
      (await valueIndexes()).filter((name) => name.slice(6).split('@')[0] === fieldId);
    await client.items.rawList({ filter: { type, fields: { kind: { eq: 'a' } } } });
    await client.items.rawList({ filter: { type, fields: { name: { eq: 'x' } } } });
    await client.items.rawList({ filter: { type }, order_by: 'rank_ASC' });
    await client.items.rawList({ filter: { type }, order_by: 'name_ASC', locale: 'it' });
    assert.equal((await indexesOf(fields.kind.id)).length, 1);
    assert.equal((await indexesOf(fields.name.id)).length, 2);
    assert.equal((await indexesOf(fields.rank.id)).length, 1);

    // A label changes nothing the index reads.
    await client.fields.update(fields.kind.id, { label: 'Kind of thing' });
    assert.equal((await indexesOf(fields.kind.id)).length, 1);
    // A new localization does.
    await client.fields.update(fields.kind.id, { localized: true });
    assert.deepEqual(await indexesOf(fields.kind.id), []);
    // The list after it filters the localized values, on a new index.
    const localized = await client.items.rawList({
      filter: { type, fields: { kind: { eq: 'a' } } },
    });
    assert.equal(localized.meta.total_count, 3);
    assert.deepEqual(await indexesOf(fields.kind.id), [`iv_tc_${fields.kind.id}@en`]);

    // A locale removed takes its indexes with it.
    await client.site.update({ locales: ['en'] });
    assert.deepEqual(await indexesOf(fields.name.id), [`iv_tc_${fields.name.id}@en`]);

    await client.fields.destroy(fields.rank.id);
    assert.deepEqual(await indexesOf(fields.rank.id), []);
    await client.itemTypes.destroy(model.id);
    assert.deepEqual(await indexesOf(fields.kind.id), []);
    assert.deepEqual(await indexesOf(fields.name.id), []);
  });
});
