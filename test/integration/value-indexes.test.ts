import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { MAX_VALUE_INDEXES } from '../../src/domain/limits.ts';
import { TEST_ENGINE } from '../support/databases.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';
import { dropAllValueIndexes, valueIndexNames } from '../support/value-indexes.ts';

// A list filtered by a field's text or sorted by a field's value makes an index on that
// value (src/domain/items/query/value-indexes.ts). An index may only change how fast a
// list is: these compare each list with its indexes against the same list after they are
// dropped (the process still believes them there, so it runs the statement without), and
// check that schema changes drop the indexes they make useless.
describe('value indexes', () => {
  const server = useTestServer();

  const valueIndexes = () => valueIndexNames(server.db);
  const dropValueIndexes = () => dropAllValueIndexes(server.db);

  /** The schema of the primary environment (where the admin client's records are). */
  async function primarySchema(): Promise<string> {
    const row = await server.db
      .selectFrom('environments')
      .select('schema_name')
      .where('is_primary', '=', true)
      .executeTakeFirstOrThrow();
    return row.schema_name;
  }

  /** The plan of a statement, with sequential scans priced out: an index is used if it can be. */
  async function planOf(statement: ReturnType<typeof sql>): Promise<string> {
    return server.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const explained = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${statement}`.execute(trx);
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  /** Whether the catalog holds the index valid, and unique. */
  async function indexFlags(
    name: string,
  ): Promise<{ valid: boolean; unique: boolean } | undefined> {
    const found = await sql<{ valid: boolean; unique: boolean }>`
      SELECT i.indisvalid AS valid, i.indisunique AS unique FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ${name}
    `.execute(server.db);
    return found.rows[0];
  }

  /** A model with an integer, a float and a date, and records covering nulls, ties and published values. */
  async function measures() {
    const client = server.client();
    const model = await buildModel(client, { draft_mode_active: true });
    const size = await buildField(client, {
      itemTypeId: model.id,
      api_key: 'size',
      field_type: 'integer',
    });
    const weight = await buildField(client, {
      itemTypeId: model.id,
      api_key: 'weight',
      field_type: 'float',
    });
    const day = await buildField(client, {
      itemTypeId: model.id,
      api_key: 'day',
      field_type: 'date',
    });
    const rows = [
      { size: 1, weight: 0.25, day: '2024-01-31' },
      { size: 2, weight: 1.5, day: '2024-02-10' },
      { size: 2, weight: null, day: '2024-12-01' },
      { size: null, weight: -3, day: null },
      { size: 10, weight: 1.5, day: '0999-06-01' },
      { size: -4, weight: 100.125, day: '2024-02-09' },
    ];
    const ids: string[] = [];
    for (const attributes of rows) {
      const record = await client.items.create({ item_type: itemTypeRef(model.id), ...attributes });
      ids.push(record.id);
    }
    for (const id of ids.slice(0, 4)) await client.items.publish(id);
    await client.items.update(ids[0] ?? '', { size: 7, day: '2025-01-01' });
    return { model, fields: { size, weight, day }, ids };
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
  test('number and date comparisons read the same records with their value indexes and without', async () => {
    const client = server.client();
    const { model, fields } = await measures();
    const type = model.id;
    const lists = [
      { filter: { type, fields: { size: { gt: 1 } } } },
      { filter: { type, fields: { size: { gte: '2', lt: 10 } } }, order_by: 'size_ASC' },
      { filter: { type, fields: { size: { eq: 2 } } } },
      { filter: { type, fields: { size: { lte: 2 } } }, version: 'published' },
      { filter: { type, fields: { weight: { gte: 1.5 } } } },
      { filter: { type, fields: { weight: { lt: '0.5' } } } },
      { filter: { type, fields: { weight: { eq: 100.125 } } } },
      { filter: { type, fields: { day: { gte: '2024-02-10' } } } },
      { filter: { type, fields: { day: { lt: '2024-02-10' } } }, order_by: 'day_DESC' },
      { filter: { type, fields: { day: { eq: '2024-02-09' } } } },
      { filter: { type, fields: { day: { gt: '2024-01-31', lte: '2024-12-01' } } } },
      { filter: { type, fields: { day: { gte: '2024-01-01' } } }, version: 'published' },
    ] as const;
    const read = async () => {
      const pages = [];
      for (const params of lists) {
        const page = await client.items.rawList({ ...params, page: { limit: 100 } } as never);
        pages.push(page.data.map((record) => record.id).sort());
      }
      return pages;
    };
    const indexed = await read();
    const names = await valueIndexes();
    const of = (fieldId: string) => names.filter((name) => name.endsWith(`_${fieldId}`));
    assert.deepEqual(of(fields.size.id), [
      `iv_jc_${fields.size.id}`,
      `iv_nc_${fields.size.id}`,
      `iv_np_${fields.size.id}`,
    ]);
    assert.deepEqual(of(fields.weight.id), [`iv_nc_${fields.weight.id}`]);
    assert.deepEqual(of(fields.day.id), [
      `iv_dc_${fields.day.id}`,
      `iv_dp_${fields.day.id}`,
      `iv_jc_${fields.day.id}`,
    ]);
    await dropValueIndexes();
    assert.deepEqual(await read(), indexed);
    assert.deepEqual(
      indexed.map((ids) => ids.length),
      [4, 3, 2, 3, 3, 2, 1, 3, 2, 1, 3, 3],
    );
  });

  test('the statements number and date comparisons send can be answered from their indexes', async () => {
    const client = server.client();
    const { model, fields } = await measures();
    const type = model.id;
    await client.items.rawList({ filter: { type, fields: { size: { gt: 1 } } } });
    await client.items.rawList({ filter: { type, fields: { day: { lte: '2024-02-10' } } } });
    const items = sql.table(`${await primarySchema()}.items`);
    // The filters' own shapes (filter-operators.ts), parameters bound as the list binds them.
    const numbers = await planOf(
      sql`SELECT id FROM ${items} WHERE item_type_id IN (${type})
        AND ((items.item_values #>> ${[fields.size.id]}))::numeric > ${1}::numeric`,
    );
    assert.match(numbers, new RegExp(`iv_nc_${fields.size.id}`));
    const dates = await planOf(
      sql`SELECT id FROM ${items} WHERE item_type_id IN (${type})
        AND ((items.item_values #>> ${[fields.day.id]}) COLLATE "C") <= ${'2024-02-10'}`,
    );
    assert.match(dates, new RegExp(`iv_dc_${fields.day.id}`));
  });

  test('an invalid index left by a failed build is dropped and built again', async () => {
    const client = server.client();
    const model = await buildModel(client);
    const field = await buildField(client, { itemTypeId: model.id, api_key: 'code' });
    for (const code of ['k1', 'k1', 'k2'])
      await client.items.create({ item_type: itemTypeRef(model.id), code });
    const name = `iv_tc_${field.id}`;
    // A concurrent build that fails leaves its index in the catalog, INVALID: here a
    // unique one over duplicates, under the name the list's own index has.
    await assert.rejects(
      sql`CREATE UNIQUE INDEX CONCURRENTLY ${sql.id(name)} ON ${sql.table(`${await primarySchema()}.items`)}
        ((item_values #>> ${sql.lit(`{"${field.id}"}`)}::text[])) WHERE item_type_id = ${sql.lit(model.id)}`.execute(
        server.db,
      ),
    );
    assert.deepEqual(await indexFlags(name), { valid: false, unique: true });
    const page = await client.items.rawList({
      filter: { type: model.id, fields: { code: { eq: 'k1' } } },
    });
    assert.equal(page.meta.total_count, 2);
    assert.deepEqual(await indexFlags(name), { valid: true, unique: false });
  });

  // Last: it fills the environment with value indexes up to the cap, then removes them.
  test('past MAX_VALUE_INDEXES a list answers the same and builds no index', async () => {
    const client = server.client();
    const { model, ids } = await measures();
    const schema = await primarySchema();
    const fillers = MAX_VALUE_INDEXES - (await valueIndexes()).length;
    assert.ok(fillers > 0);
    const filler = (n: number) => sql.table(`${schema}.iv_tc_filler${n}`);
    for (let n = 0; n < fillers; n++)
      await sql`CREATE INDEX ${sql.id(`iv_tc_filler${n}`)} ON ${sql.table(`${schema}.items`)} (id) WHERE false`.execute(
        server.db,
      );
    try {
      const before = await valueIndexes();
      assert.equal(before.length, MAX_VALUE_INDEXES);
      const page = await client.items.rawList({
        filter: { type: model.id, fields: { size: { gte: 2 } } },
        order_by: 'weight_DESC',
      });
      assert.deepEqual(
        page.data.map((record) => record.id).sort(),
        [ids[0], ids[1], ids[2], ids[4]].sort(),
      );
      const weights = page.data.map((record) => record.attributes.weight);
      assert.deepEqual(
        weights.filter((weight) => weight !== null),
        [1.5, 1.5, 0.25],
      );
      assert.deepEqual(await valueIndexes(), before);
    } finally {
      for (let n = 0; n < fillers; n++) await sql`DROP INDEX ${filler(n)}`.execute(server.db);
    }
  });

  // PostgreSQL builds concurrently; the embedded engine has one connection, where nothing
  // runs beside a build.
  if (TEST_ENGINE === 'postgres') {
    test('PostgreSQL: record writes go on while a value index is being built', async () => {
      const client = server.client();
      const { model, ids } = await measures();
      const items = `${await primarySchema()}.items`;
      const relation = sql`to_regclass(${items})`;
      const [held = '', other = ''] = ids;
      let list: Promise<unknown> | undefined;
      let buildLocks: { mode: string; granted: boolean }[] = [];
      let settled = false;
      let written = false;
      let waited = false;
      await assert.rejects(
        server.db.transaction().execute(async (trx) => {
          // A write in progress: the build waits for it to end before it reads the records.
          await sql`UPDATE ${sql.table(items)} SET updated_at = now() WHERE id = ${held}`.execute(
            trx,
          );
          list = client.items.rawList({
            filter: { type: model.id, fields: { weight: { gt: 0 } } },
          });
          list.then(
            () => (settled = true),
            () => (settled = true),
          );
          // The build's locks on the table, once it runs.
          while (buildLocks.length === 0 && !settled) {
            buildLocks = (
              await sql<{ mode: string; granted: boolean }>`
                SELECT l.mode, l.granted FROM pg_stat_progress_create_index p
                JOIN pg_locks l ON l.pid = p.pid AND l.locktype = 'relation' AND l.relation = p.relid
                WHERE p.relid = ${relation}
              `.execute(server.db)
            ).rows;
            await sleep(5);
          }
          // Another write meanwhile: it completes, and nothing waits for a lock on the table.
          const write = client.items.update(other, { size: 3 }).then(() => {
            written = true;
          });
          while (!written && !waited) {
            waited =
              (
                await sql<{ waits: boolean }>`
                SELECT EXISTS (
                  SELECT FROM pg_locks WHERE NOT granted AND locktype = 'relation' AND relation = ${relation}
                ) AS waits
              `.execute(server.db)
              ).rows[0]?.waits === true;
            await sleep(5);
          }
          await write;
          throw new Error('roll back');
        }),
        /roll back/,
      );
      // Only the lock that record writes do not conflict with (SHARE UPDATE EXCLUSIVE).
      assert.ok(buildLocks.length > 0, 'the build was seen running');
      assert.ok(
        buildLocks.every((lock) => lock.mode === 'ShareUpdateExclusiveLock' && lock.granted),
        JSON.stringify(buildLocks),
      );
      assert.ok(written && !waited, 'the write waited for the build');
      await list;
      // Built then, or by the next list if the build gave way to the write held open.
      const page = await client.items.rawList({
        filter: { type: model.id, fields: { weight: { gt: 0 } } },
      });
      assert.equal(page.meta.total_count, 4);
      const built = (await valueIndexes()).find((name) => name.startsWith('iv_nc_'));
      assert.ok(built && (await indexFlags(built))?.valid);
    });
  }
});
