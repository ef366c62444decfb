import assert from 'node:assert/strict';
import { test } from 'node:test';
import { executeQuery } from '@datocms/cda-client';
import { sql } from 'kysely';
import { deliveryToken } from '../support/delivery-tokens.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';
import { dropAllValueIndexes, valueIndexNames } from '../support/value-indexes.ts';

// The delivery API's `orderBy` on a field sorts by the value of the version it serves; the
// first query makes a value index on that expression (src/domain/items/query/value-indexes.ts),
// so a page of a large model is read from the index instead of sorting every record. The
// index may only change the speed: the same queries answer the same pages without it.

const server = useTestServer();

const valueIndexes = () => valueIndexNames(server.db);
const dropValueIndexes = () => dropAllValueIndexes(server.db);

/** A model of ranked, named records: published, then some changed, so drafts differ. */
async function rankedModel(apiKey: string) {
  const client = server.client();
  await client.site.update({ locales: ['en', 'it'] });
  const model = await buildModel(client, { api_key: apiKey, draft_mode_active: true });
  const rank = await buildField(client, {
    itemTypeId: model.id,
    api_key: 'rank',
    field_type: 'integer',
  });
  const name = await buildField(client, { itemTypeId: model.id, api_key: 'name', localized: true });
  const rows = [
    { rank: 2, name: { en: 'b', it: 'd' } },
    { rank: 1, name: { en: 'a', it: null } },
    { rank: null, name: { en: 'c', it: 'a' } },
    { rank: 2, name: { en: 'a', it: 'b' } },
    { rank: 7, name: { en: 'd', it: 'c' } },
  ];
  const ids: string[] = [];
  for (const values of rows) {
    const record = await client.items.create({ item_type: itemTypeRef(model.id), ...values });
    await client.items.publish(record.id);
    ids.push(record.id);
  }
  await client.items.update(ids[0] ?? '', { rank: 9 });
  await client.items.update(ids[4] ?? '', { rank: null });
  return { model, fields: { rank, name }, ids };
}

test('orderBy a field builds the index of the version served and reads the same pages without it', async () => {
  const { fields } = await rankedModel('gadget');
  const endpoint = `${server.baseUrl}/graphql`;
  const token = await deliveryToken(server.db, { preview: true });
  const queries = [
    { document: '{ allGadgets(orderBy: rank_DESC) { id } }', drafts: false },
    { document: '{ allGadgets(orderBy: rank_DESC) { id } }', drafts: true },
    {
      document: '{ allGadgets(orderBy: [rank_ASC, _createdAt_DESC], first: 3) { id } }',
      drafts: false,
    },
    { document: '{ allGadgets(orderBy: name_ASC, locale: it) { id } }', drafts: false },
    { document: '{ allGadgets(orderBy: name_DESC, skip: 1) { id } }', drafts: true },
  ];
  const read = async () => {
    const pages: string[][] = [];
    for (const { document, drafts } of queries) {
      const result = await executeQuery<{ allGadgets: { id: string }[] }>(document, {
        token,
        graphqlEndpointUrl: endpoint,
        includeDrafts: drafts,
        autoRetry: false,
      });
      pages.push(result.allGadgets.map((record) => record.id));
    }
    return pages;
  };
  const indexed = await read();
  assert.deepEqual(
    (await valueIndexes()).sort(),
    [
      `iv_jc_${fields.name.id}@en`,
      `iv_jc_${fields.rank.id}`,
      `iv_jp_${fields.name.id}@it`,
      `iv_jp_${fields.rank.id}`,
    ].sort(),
  );
  await dropValueIndexes();
  // The process still believes them there: the same statements now run without them.
  assert.deepEqual(await read(), indexed);
  assert.deepEqual(
    indexed.map((page) => page.length),
    [5, 5, 3, 5, 4],
  );
});

test('a page ordered by a field can be read from its index instead of sorting the model', async () => {
  const { model, fields } = await rankedModel('widget');
  const token = await deliveryToken(server.db, { preview: false });
  await executeQuery('{ allWidgets(first: 2, orderBy: rank_DESC) { id } }', {
    token,
    graphqlEndpointUrl: `${server.baseUrl}/graphql`,
    autoRetry: false,
  });
  const [schema] = (
    await sql<{ schema: string }>`
      SELECT schemaname AS schema FROM pg_indexes WHERE indexname = ${`iv_jp_${fields.rank.id}`}
    `.execute(server.db)
  ).rows;
  assert.ok(schema, 'the query made its index');
  // The page statement's shape, parameters bound as the resolver binds them: with scans
  // that would sort priced out, the planner walks the index only if its expression matches.
  const plan = await server.db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
    const explained = await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN SELECT id FROM ${sql.table(`${schema.schema}.items`)}
      WHERE item_type_id = ${model.id} AND published_values IS NOT NULL
      ORDER BY (published_values #> ${[fields.rank.id]}) DESC, id LIMIT 2
    `.execute(trx);
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
  assert.match(plan, new RegExp(`Index Scan Backward using "?iv_jp_${fields.rank.id}`));
});
