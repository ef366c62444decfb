// Benchmark: record create, update and list through the official client on loopback,
// against an in-process server on a fresh database (FIELDHOUSE_TEST_DB=embedded|postgres).
// Usage: FIELDHOUSE_TEST_DB=postgres npx tsx bench/items.ts [--records 500]
import { parseArgs } from 'node:util';
import { startTestServer } from '../test/support/server.ts';
import { percentile } from './support.ts';

const { values } = parseArgs({ options: { records: { type: 'string', default: '500' } } });
const count = Number(values.records);

async function timed<T>(samples: number[], call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await call();
  samples.push(performance.now() - started);
  return result;
}

function summary(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => percentile(sorted, p).toFixed(2);
  return `${name}: n=${samples.length} p50=${at(50)} ms p95=${at(95)} ms p99=${at(99)} ms`;
}

const server = await startTestServer();
try {
  const client = server.client();
  const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  await client.fields.create(model.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  await client.fields.create(model.id, {
    label: 'Views',
    api_key: 'views',
    field_type: 'integer',
    validators: { number_range: { min: 0 } },
  });
  const creates: number[] = [];
  const updates: number[] = [];
  const lists: number[] = [];
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const record = await timed(creates, () =>
      client.items.create({ item_type: model, title: `Article ${i}`, views: i }),
    );
    ids.push(record.id);
  }
  for (const id of ids) await timed(updates, () => client.items.update(id, { views: 1 }));
  for (let i = 0; i < 30; i++)
    await timed(lists, () =>
      client.items.rawList({ filter: { type: 'article' }, page: { limit: 500 } }),
    );
  console.log(`engine=${process.env.FIELDHOUSE_TEST_DB ?? 'embedded'}`);
  console.log(summary('items.create', creates));
  console.log(summary('items.update', updates));
  console.log(summary(`items.list (${Math.min(count, 500)} records)`, lists));
} finally {
  await server.close();
}
