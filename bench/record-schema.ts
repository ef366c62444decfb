// Benchmark: schema changes that reach records on a model holding many
// records, through the official client against an in-process server on a fresh database
// (FIELDHOUSE_TEST_DB=embedded|postgres). A hint change (no record work) is the baseline.
// Usage: FIELDHOUSE_TEST_DB=postgres npx tsx bench/record-schema.ts [--records 20000]
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { qualifiedTable } from '../src/db/environment-scope.ts';
import { startTestServer } from '../test/support/server.ts';
import { printTable } from './support.ts';

const { values } = parseArgs({ options: { records: { type: 'string', default: '20000' } } });
const count = Number(values.records);

const server = await startTestServer();
try {
  const client = server.client();
  const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  const title = await client.fields.create(model.id, {
    label: 'Title',
    api_key: 'title',
    field_type: 'string',
  });
  const views = await client.fields.create(model.id, {
    label: 'Views',
    api_key: 'views',
    field_type: 'float',
  });
  const seed = await client.items.create({
    item_type: { type: 'item_type', id: model.id },
    title: 'Seed',
    views: 1.5,
  });
  // The other records are copies of the seed, made in one statement: creating them one by
  // one through the API would take longer than everything measured here.
  const { schema_name: schema } = await server.db
    .selectFrom('environments')
    .select('schema_name')
    .where('is_primary', '=', true)
    .executeTakeFirstOrThrow();
  const items = qualifiedTable(schema, 'items');
  await sql`
    INSERT INTO ${items} (id, item_type_id, creator_id, item_values, published_values, status,
      current_version_id, published_version_id)
    SELECT 'bench' || n, item_type_id, creator_id, item_values, published_values, status,
      current_version_id, published_version_id
    FROM ${items}, generate_series(2, ${count}) AS n WHERE id = ${seed.id}
  `.execute(server.db);

  const rows: Record<string, string | number>[] = [];
  async function measure(change: string, call: () => Promise<unknown>) {
    const started = performance.now();
    await call();
    rows.push({ change, records: String(count), ms: performance.now() - started });
  }
  await measure('hint (baseline: no record work)', () =>
    client.fields.update(title.id, { hint: 'A hint' }),
  );
  await measure('required added (every record re-judged)', () =>
    client.fields.update(title.id, { validators: { required: {} } }),
  );
  await measure('field_type string → text (values kept)', () =>
    client.fields.update(title.id, { field_type: 'text' }),
  );
  await measure('field_type float → integer (every value rewritten)', () =>
    client.fields.update(views.id, { field_type: 'integer' }),
  );
  await measure('localized: true (every value rewritten)', () =>
    client.fields.update(views.id, { localized: true }),
  );
  await measure('site locale added', () => client.site.update({ locales: ['en', 'it'] }));
  const found = await client.items.find(seed.id);
  if (found.views === null) throw new Error('the conversions lost the seed value');
  console.log(`engine=${process.env.FIELDHOUSE_TEST_DB ?? 'embedded'}`);
  printTable(rows);
} finally {
  await server.close();
}
