// Benchmark: records holding blocks against records without, in the same run, through the
// official client on loopback, against an in-process server on a fresh database
// (FIELDHOUSE_TEST_DB=embedded|postgres). Each record of the "blocks" model holds three
// blocks; its update rewrites one block in place and keeps two by id.
// Usage: FIELDHOUSE_TEST_DB=postgres npx tsx bench/blocks.ts [--records 300]
import { parseArgs } from 'node:util';
import { buildBlockRecord } from '@datocms/cma-client-node';
import { startTestServer } from '../test/support/server.ts';
import { percentile } from './support.ts';

const { values } = parseArgs({ options: { records: { type: 'string', default: '300' } } });
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
  return `${name}: n=${samples.length} p50=${at(50)} ms p95=${at(95)} ms`;
}

const server = await startTestServer();
try {
  const client = server.client();
  const plain = await client.itemTypes.create({ name: 'Plain', api_key: 'plain' });
  await client.fields.create(plain.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  const block = await client.itemTypes.create({
    name: 'Section',
    api_key: 'section',
    modular_block: true,
  });
  await client.fields.create(block.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  const withBlocks = await client.itemTypes.create({ name: 'Page', api_key: 'page' });
  await client.fields.create(withBlocks.id, {
    label: 'Title',
    api_key: 'title',
    field_type: 'string',
  });
  await client.fields.create(withBlocks.id, {
    label: 'Sections',
    api_key: 'sections',
    field_type: 'rich_text',
    validators: { rich_text_blocks: { item_types: [block.id] } },
  });
  const section = (title: string) =>
    buildBlockRecord({ item_type: { type: 'item_type', id: block.id }, title });

  const samples = {
    plainCreate: [] as number[],
    plainUpdate: [] as number[],
    blocksCreate: [] as number[],
    blocksUpdate: [] as number[],
    list: [] as number[],
    listNested: [] as number[],
  };
  // Interleaved, so both kinds see the same machine load.
  for (let i = 0; i < count; i++) {
    const a = await timed(samples.plainCreate, () =>
      client.items.create({ item_type: plain, title: `Plain ${i}` }),
    );
    const b = await timed(samples.blocksCreate, () =>
      client.items.create({
        item_type: withBlocks,
        title: `Page ${i}`,
        sections: [section('one'), section('two'), section('three')],
      }),
    );
    await timed(samples.plainUpdate, () => client.items.update(a.id, { title: 'changed' }));
    const [first, ...rest] = b.sections as string[];
    await timed(samples.blocksUpdate, () =>
      client.items.update(b.id, {
        sections: [buildBlockRecord({ id: first ?? '', title: 'changed' }), ...rest],
      }),
    );
  }
  for (let i = 0; i < 20; i++) {
    await timed(samples.list, () =>
      client.items.rawList({ filter: { type: 'page' }, page: { limit: 500 } }),
    );
    await timed(samples.listNested, () =>
      client.items.rawList({ filter: { type: 'page' }, page: { limit: 500 }, nested: true }),
    );
  }
  console.log(`engine=${process.env.FIELDHOUSE_TEST_DB ?? 'embedded'} records=${count}`);
  console.log(summary('create, no blocks (baseline)', samples.plainCreate));
  console.log(summary('create, 3 blocks', samples.blocksCreate));
  console.log(summary('update, no blocks (baseline)', samples.plainUpdate));
  console.log(summary('update, 1 block in place + 2 kept', samples.blocksUpdate));
  console.log(summary('list pages, ids (baseline)', samples.list));
  console.log(summary('list pages, nested=true', samples.listNested));
} finally {
  await server.close();
}
