// The schema workload of the design's budget, through the official client against a real
// `fieldhouse serve` process: ops/s and latency percentiles per phase, and the server's RSS.
// Usage: npx tsx bench/schema-workload.ts [--db embedded|postgres]
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import { runFieldhouse } from '../test/support/process.ts';
import { startReceiver } from '../test/support/receiver.ts';
import { benchDatabase, percentile, printTable, rssMb } from './support.ts';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'embedded' } },
});
const TOKEN = 'bench-admin-token-000000002';
// Fifteen types that need no other model, so every model gets the same mix.
const FIELD_TYPES = [
  'string',
  'text',
  'integer',
  'float',
  'boolean',
  'date',
  'date_time',
  'color',
  'json',
  'lat_lon',
  'seo',
  'slug',
  'video',
  'file',
  'gallery',
] as const;

const database = await benchDatabase(values.db === 'postgres' ? 'postgres' : 'embedded');
const receiver = await startReceiver();
// Started as `fieldhouse serve` runs installed: the executable, whose shebang holds node's flags.
const server = runFieldhouse(
  ['serve'],
  {
    ...(database.engine === 'postgres'
      ? { DATABASE_URL: database.url }
      : { FIELDHOUSE_DATA_DIR: database.dataDir }),
    FIELDHOUSE_ADMIN_TOKEN: TOKEN,
    FIELDHOUSE_WEBHOOK_ALLOW: '127.0.0.1/32',
    LOG_LEVEL: 'info',
  },
  ['bin/fieldhouse.js'],
);
const baseUrl = (await server.listening).replace('[::1]', '127.0.0.1');
const client = buildClient({ apiToken: TOKEN, baseUrl, autoRetry: false });

type Phase = { phase: string; samples: number[]; ms: number };
const phases: Phase[] = [];

/** Runs the calls one after another, as a migration script does, timing each. */
async function phase(name: string, calls: (() => Promise<unknown>)[]): Promise<void> {
  const samples: number[] = [];
  const started = performance.now();
  for (const call of calls) {
    const t0 = performance.now();
    await call();
    samples.push(performance.now() - t0);
  }
  phases.push({ phase: name, samples, ms: performance.now() - started });
}

try {
  const models: string[] = [];
  const fields: string[] = [];
  await phase(
    'create 20 models × 15 fields',
    Array.from({ length: 20 }, (_, m) => [
      async () => {
        const model = await client.itemTypes.create({ name: `Model ${m}`, api_key: `model${m}` });
        models.push(model.id);
      },
      ...FIELD_TYPES.map((fieldType, f) => async () => {
        const modelId = models[m] ?? '';
        // A loop over field types: one cast, since the client types each type separately.
        const body = { label: `Field ${f}`, api_key: `field${f}`, field_type: fieldType };
        const field = await client.fields.create(
          modelId,
          body as Parameters<typeof client.fields.create>[1],
        );
        fields.push(field.id);
      }),
    ]).flat(),
  );
  await phase(
    'update every field',
    fields.map((id, i) => () => client.fields.update(id, { hint: `updated ${i}` })),
  );
  await phase(
    'update every model',
    models.map((id, i) => () => client.itemTypes.update(id, { hint: `updated ${i}` })),
  );
  const webhooks: string[] = [];
  await phase('create 5 webhooks, update each 10 times', [
    ...Array.from({ length: 5 }, (_, w) => async () => {
      const webhook = await client.webhooks.create({
        name: `Webhook ${w}`,
        url: `${receiver.url}/hook/${w}`,
        custom_payload: null,
        headers: {},
        events: [{ entity_type: 'item_type', event_types: ['update'] }],
        http_basic_user: null,
        http_basic_password: null,
      });
      webhooks.push(webhook.id);
    }),
    ...Array.from(
      { length: 50 },
      (_, i) => () =>
        client.webhooks.update(webhooks[i % 5] ?? '', { headers: { 'X-Revision': String(i) } }),
    ),
  ]);
  await phase(
    'list models 50 times',
    Array.from({ length: 50 }, () => () => client.itemTypes.list()),
  );
  await phase(
    'list fields 50 times',
    Array.from({ length: 50 }, (_, i) => () => client.fields.list(models[i % 20] ?? '')),
  );
  const rss = rssMb(server.child.pid ?? 0);

  const rows = phases.map(({ phase: name, samples, ms }) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      phase: name,
      ops: String(samples.length),
      'ops/s': (samples.length / ms) * 1000,
      'p50 ms': percentile(sorted, 50),
      'p95 ms': percentile(sorted, 95),
      'p99 ms': percentile(sorted, 99),
    };
  });
  const totalOps = phases.reduce((sum, p) => sum + p.samples.length, 0);
  const totalMs = phases.reduce((sum, p) => sum + p.ms, 0);
  const all = phases.flatMap((p) => p.samples).sort((a, b) => a - b);
  rows.push({
    phase: `all (${database.engine})`,
    ops: String(totalOps),
    'ops/s': (totalOps / totalMs) * 1000,
    'p50 ms': percentile(all, 50),
    'p95 ms': percentile(all, 95),
    'p99 ms': percentile(all, 99),
  });
  printTable(rows);
  process.stdout.write(`\nserver RSS after the workload: ${rss.toFixed(0)} MB\n`);
} finally {
  await server.stop();
  await receiver.close();
  await database.drop();
}
