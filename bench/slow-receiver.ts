// Benchmark: a healthy webhook's delivery latency while another webhook's receiver never
// answers (each of its attempts holds a delivery slot for the 8 s total timeout). Both
// webhooks get events at a steady rate, through the real server and its in-process worker.
// Usage: npx tsx bench/slow-receiver.ts [--db embedded|postgres] [--seconds 30]
//                                       [--hung-rate 10] [--healthy-rate 5]

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/client.ts';
import { WEBHOOK_CALLS_CHANNEL } from '../src/events/channel.ts';
import { startServer } from '../src/server.ts';
import { freshBenchDatabase, percentile, printTable } from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded' },
    seconds: { type: 'string', default: '30' },
    'hung-rate': { type: 'string', default: '10' },
    'healthy-rate': { type: 'string', default: '5' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const engine = values.db === 'postgres' ? 'postgres' : 'embedded';
const seconds = Number(values.seconds);
const hungRate = Number(values['hung-rate']);
const healthyRate = Number(values['healthy-rate']);

/** A receiver; `hang` never answers. Reports each call id with its arrival time. */
async function receiver(hang: boolean, onCall: (id: string) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      onCall(JSON.parse(Buffer.concat(chunks).toString()).webhook_call_id);
      if (!hang) res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function insertWebhook(db: Db, name: string, url: string): Promise<string> {
  const row = await db
    .insertInto('webhooks')
    .values({
      name,
      url,
      custom_payload: null,
      headers: JSON.stringify({}),
      events: JSON.stringify([
        { entity_type: 'item_type', event_types: ['update'], filters: null },
      ]),
      http_basic_user: null,
      http_basic_password: null,
      enabled: true,
      payload_api_version: '3',
      nested_items_in_payload: false,
      auto_retry: false,
      signing_secret: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Commits one event with one call for the webhook; returns the call id. */
async function commitCall(db: Db, webhookId: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string }>`
      WITH e AS (
        INSERT INTO events (environment, entity_type, event_type, entity_id, entity, related_entities)
        VALUES ('main', 'item_type', 'update', 'bench', '{"id":"bench","type":"item_type"}', '[]')
        RETURNING id
      )
      INSERT INTO webhook_calls (webhook_id, event_id, entity_type, event_type)
      SELECT ${webhookId}, id, 'item_type', 'update' FROM e
      RETURNING id
    `.execute(trx);
    await sql`SELECT pg_notify(${WEBHOOK_CALLS_CHANNEL}, '')`.execute(trx);
    return rows[0]?.id ?? '';
  });
}

const database = await freshBenchDatabase(
  engine,
  'fieldhouse-bench-slow',
  values['postgres-url'] ?? '',
);
const arrivals = new Map<string, number>();
const hung = await receiver(true, () => undefined);
const healthy = await receiver(false, (id) => arrivals.set(id, performance.now()));
const server = await startServer({
  ...loadConfig({}),
  port: 0,
  logLevel: 'silent',
  webhookAllow: ['127.0.0.0/8'],
  ...database.env,
});
const db = server.database.db;
const hungId = await insertWebhook(db, 'hung', `${hung.url}/hook`);
const healthyId = await insertWebhook(db, 'healthy', `${healthy.url}/hook`);

const commits = new Map<string, number>();
const start = performance.now();
const emit = async (webhookId: string, rate: number, record: boolean) => {
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = performance.now();
    const id = await commitCall(db, webhookId);
    if (record) commits.set(id, at);
  }
};
await Promise.all([emit(hungId, hungRate, false), emit(healthyId, healthyRate, true)]);
// Every healthy call is delivered, however long it waited.
const deadline = performance.now() + 120_000;
while ([...commits.keys()].some((id) => !arrivals.has(id)) && performance.now() < deadline)
  await new Promise((resolve) => setTimeout(resolve, 50));
// Calls still undelivered after the wait are counted apart, not in the percentiles.
const latencies = [...commits]
  .filter(([id]) => arrivals.has(id))
  .map(([id, at]) => (arrivals.get(id) ?? 0) - at)
  .sort((a, b) => a - b);

hung.close();
await server.close();
healthy.close();
await database.drop();

printTable([
  {
    db: engine,
    seconds,
    'hung events/s': hungRate,
    'healthy events/s': healthyRate,
    'healthy delivered': `${latencies.length} of ${commits.size}`,
    'healthy p50 ms': percentile(latencies, 50),
    'p99 ms': percentile(latencies, 99),
    'max ms': latencies[latencies.length - 1] ?? Number.NaN,
  },
]);
