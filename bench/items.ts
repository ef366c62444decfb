// Benchmark: record create, update and list through the official client on loopback, on a
// model with 20 fields, against an in-process server on a fresh database
// (FIELDHOUSE_TEST_DB=embedded|postgres); then again with 100,000 more records in the
// environment (bulk-inserted with SQL), to see what scale costs. Every figure is printed
// with the p50 of a bare `GET /healthz` on the same server measured in the same phase, and
// with the SQL statements each request ran (counted at the pg client, in this bench only).
// Usage: FIELDHOUSE_TEST_DB=postgres npx tsx bench/items.ts [--records 500] [--seed 100000]
//   [--names 1000]
//
// The field-filtered list (`filter[fields][name][eq]`, 100 per page) reads the filler
// model, which holds 1,000 records in the empty phase (10 names: 100 records each, one
// full page) and --seed more in the second, among --names names (default 1,000: the name
// listed then matches 100 + 100 records, a category that does not grow with the model):
// its p50 at +100,000 over the empty one is the "within 2x of empty" figure. Its value
// index is built by the empty phase's first list.
//
// 2026-11-23, 2 cores shared with six other engineers (load average 13–25: every figure
// is several times a quiet machine's; /healthz itself took 0.5–1.0 ms against 0.39 ms
// quiet), --records 300, p50 in ms, before → after this branch's records changes, each
// run beside the other in the same window:
//   embedded, empty: create 69.5 → 36.0, update 52.9 → 29.2, list 300: 112 → 80
//   embedded, +100,000: create 31.5 → 27.4, update 23.6 → 21.9,
//     list of the 100,000-record model (500, offset 1000): 103 → 55
//   PostgreSQL, empty: create 46 → 60, update 42.5 → 38.4, list 300: 87 → 86
//   PostgreSQL, +100,000: create 43 → 39, update 31.5 → 33.7, big-model list: 115 → 57.5
// SQL statements per request: create 17 → 11, update 18 → 11, list 6 (one of each is the
// link field's target check; main's record webhooks, merged after, add the creator's
// lookup: 12). Create/update at +100,000 stay within 1.5× of empty.
// The 3 ms / 30 ms targets could not be judged on this machine: re-measure when quiet.
import { parseArgs } from 'node:util';
import type { Client } from '@datocms/cma-client-node';
import { startTestServer, type TestServer } from '../test/support/server.ts';
import { seedPublishedRecords } from './seed-records.ts';
import { median, type Samples, samples, timed } from './statements.ts';
import { percentile, printTable, quietWindowPercentile } from './support.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '500' },
    seed: { type: 'string', default: '100000' },
    names: { type: 'string', default: '1000' },
  },
});
const count = Number(args.records);
const seedCount = Number(args.seed);

/** Names the empty phase's filler records share: the field-filtered list matches one in ten. */
const FILLER_NAMES = 10;

// Quiet windows: on a shared machine, the latency reached when nothing else competes.
const WINDOW = 10;

function row(phase: string, name: string, measured: Samples, base: Samples) {
  const sorted = [...measured.ms].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const baseline = median(base.ms);
  const quiet = quietWindowPercentile(measured.ms, WINDOW, 50);
  const quietBaseline = quietWindowPercentile(base.ms, WINDOW, 50);
  return {
    phase,
    request: name,
    n: String(measured.ms.length),
    'p50 ms': p50,
    'p99 ms': percentile(sorted, 99),
    'healthz p50 ms': baseline,
    'p50 / healthz': p50 / baseline,
    'quiet p50 ms': quiet,
    'quiet / healthz quiet': quiet / quietBaseline,
    statements: String(median(measured.statements)),
  };
}

const FIELDS: { api_key: string; field_type: string; value: (i: number) => unknown }[] = [
  { api_key: 'title', field_type: 'string', value: (i) => `Article ${i}` },
  { api_key: 'subtitle', field_type: 'string', value: (i) => `Subtitle ${i}` },
  { api_key: 'kicker', field_type: 'string', value: () => 'News' },
  { api_key: 'byline', field_type: 'string', value: () => 'Jane Doe' },
  { api_key: 'label', field_type: 'string', value: () => null },
  { api_key: 'summary', field_type: 'text', value: (i) => `Summary of article ${i}. `.repeat(4) },
  { api_key: 'body', field_type: 'text', value: (i) => `Body of article ${i}. `.repeat(40) },
  { api_key: 'notes', field_type: 'text', value: () => null },
  { api_key: 'views', field_type: 'integer', value: (i) => i },
  { api_key: 'likes', field_type: 'integer', value: (i) => i % 7 },
  { api_key: 'score', field_type: 'float', value: (i) => i / 3 },
  { api_key: 'ratio', field_type: 'float', value: () => 0.5 },
  { api_key: 'featured', field_type: 'boolean', value: (i) => i % 2 === 0 },
  { api_key: 'archived', field_type: 'boolean', value: () => false },
  { api_key: 'day', field_type: 'date', value: () => '2026-11-23' },
  { api_key: 'at', field_type: 'date_time', value: () => '2026-11-23T10:00:00+00:00' },
  {
    api_key: 'tint',
    field_type: 'color',
    value: () => ({ red: 10, green: 20, blue: 30, alpha: 255 }),
  },
  { api_key: 'extra', field_type: 'json', value: (i) => JSON.stringify({ n: i }) },
  { api_key: 'place', field_type: 'lat_lon', value: () => ({ latitude: 45.1, longitude: 9.2 }) },
  { api_key: 'author', field_type: 'link', value: () => undefined },
];

async function setUp(client: Client) {
  const author = await client.itemTypes.create({ name: 'Author', api_key: 'author' });
  await client.fields.create(author.id, { label: 'Name', api_key: 'name', field_type: 'string' });
  const someone = await client.items.create({ item_type: author, name: 'Jane' });
  const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  for (const field of FIELDS)
    await client.fields.create(model.id, {
      label: field.api_key,
      api_key: field.api_key,
      field_type: field.field_type,
      validators:
        field.field_type === 'link'
          ? { item_item_type: { item_types: [author.id] } }
          : field.api_key === 'title'
            ? { required: {} }
            : {},
    } as Parameters<Client['fields']['create']>[1]);
  const filler = await client.itemTypes.create({ name: 'Filler', api_key: 'filler' });
  await client.fields.create(filler.id, { label: 'Name', api_key: 'name', field_type: 'string' });
  const attributes = (i: number) =>
    Object.fromEntries(
      FIELDS.map((field) => [
        field.api_key,
        field.api_key === 'author' ? someone.id : field.value(i),
      ]),
    );
  return { model, filler, attributes };
}

async function healthz(server: TestServer, into: Samples, rounds: number) {
  for (let i = 0; i < rounds; i++)
    await timed(into, async () => (await fetch(`${server.baseUrl}/healthz`)).text());
}

/** One phase: creates, updates and lists, each followed by its healthz baseline. */
async function phase(
  name: string,
  server: TestServer,
  context: Awaited<ReturnType<typeof setUp>>,
  sequence: { next: number },
) {
  const client = server.client();
  const base = samples();
  const creates = samples();
  const updates = samples();
  const lists = samples();
  const fillerLists = samples();
  const fieldLists = samples();
  const idLists = samples();
  const ids: string[] = [];
  // Warm-up: the first requests of a phase plan statements and fill caches.
  await healthz(server, samples(), 50);
  for (let i = 0; i < count; i++) {
    const n = sequence.next++;
    const record = await timed(creates, () =>
      client.items.create({ item_type: context.model, ...context.attributes(n) }),
    );
    ids.push(record.id);
    if (i % 10 === 0) await healthz(server, base, 5);
  }
  for (const [i, id] of ids.entries()) {
    await timed(updates, () => client.items.update(id, { views: i, subtitle: `Changed ${i}` }));
    if (i % 10 === 0) await healthz(server, base, 5);
  }
  for (let i = 0; i < 30; i++) {
    await timed(lists, () =>
      client.items.rawList({ filter: { type: 'article' }, page: { limit: 500 } }),
    );
    await timed(fillerLists, () =>
      client.items.rawList({ filter: { type: 'filler' }, page: { limit: 500, offset: 1000 } }),
    );
    await timed(fieldLists, () =>
      client.items.rawList({
        filter: { type: 'filler', fields: { name: { eq: 'Filler 3' } } },
        page: { limit: 100 },
      }),
    );
    await timed(idLists, () =>
      client.items.rawList({ filter: { ids: ids.slice(0, 100).join(',') }, page: { limit: 100 } }),
    );
    await healthz(server, base, 5);
  }
  return [
    row(name, 'items.create', creates, base),
    row(name, 'items.update', updates, base),
    row(name, `items.list filter[type] (${Math.min(count, 500)} of ${count})`, lists, base),
    row(name, 'items.list filter[type]=filler (500, offset 1000)', fillerLists, base),
    row(name, 'items.list filter[fields][name][eq]=filler (100)', fieldLists, base),
    row(name, 'items.list filter[ids] (100)', idLists, base),
  ];
}

const server = await startTestServer();
try {
  const context = await setUp(server.client());
  // Empty-ish: enough filler records for one full page of the field-filtered list.
  await seedPublishedRecords(server, context.filler.id, 1000, 'Filler', {
    distinct: FILLER_NAMES,
    prefix: 'small',
  });
  const sequence = { next: 0 };
  const rows = [...(await phase('empty', server, context, sequence))];
  if (seedCount > 0) {
    const started = performance.now();
    await seedPublishedRecords(server, context.filler.id, seedCount, 'Filler', {
      distinct: Number(args.names),
    });
    console.log(`seeded ${seedCount} records in ${(performance.now() - started).toFixed(0)} ms`);
    rows.push(...(await phase(`+${seedCount}`, server, context, sequence)));
  }
  console.log(`engine=${process.env.FIELDHOUSE_TEST_DB ?? 'embedded'} records=${count}`);
  printTable(rows);
} finally {
  await server.close();
}
