// Benchmark: webhook delivery through the real server (API + in-process worker) to a
// loopback receiver running in its own thread. Two phases:
//   drain   — N calls committed at once; sustained deliveries/s until all are answered
//   latency — events committed at a steady rate; commit→receiver p50/p99
// Usage: npx tsx bench/delivery.ts [--db embedded|postgres] [--calls 5000] [--rate 200]
//                                  [--seconds 10] [--concurrency 16]
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/client.ts';
import { WEBHOOK_CALLS_CHANNEL } from '../src/events/channel.ts';
import { startServer } from '../src/server.ts';
import { freshBenchDatabase, percentile, printTable } from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded' },
    calls: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const engine = values.db === 'postgres' ? 'postgres' : 'embedded';
const drainCalls = Number(values.calls);
const rate = Number(values.rate);
const seconds = Number(values.seconds);

/** Wall-clock milliseconds comparable across threads. */
const now = () => performance.timeOrigin + performance.now();

// The receiver answers 200 at once and reports each call id with its arrival time.
const RECEIVER = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    res.end('ok');
    const id = JSON.parse(Buffer.concat(chunks).toString()).webhook_call_id;
    parentPort.postMessage({ id, at });
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

/** Commits `count` events with one call each in one transaction; returns the call ids. */
async function commitCalls(db: Db, webhookId: string, count: number): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string }>`
      WITH e AS (
        INSERT INTO events (environment, entity_type, event_type, entity_id, entity, related_entities)
        SELECT 'main', 'item_type', 'update', 'bench',
          jsonb_build_object('id', 'bench', 'type', 'item_type', 'attributes', jsonb_build_object('n', n)), '[]'
        FROM generate_series(1, ${count}) AS n
        RETURNING id
      )
      INSERT INTO webhook_calls (webhook_id, event_id, entity_type, event_type)
      SELECT ${webhookId}, id, 'item_type', 'update' FROM e
      RETURNING id
    `.execute(trx);
    await sql`SELECT pg_notify(${WEBHOOK_CALLS_CHANNEL}, '')`.execute(trx);
    return rows.map((row) => row.id);
  });
}

const database = await freshBenchDatabase(
  engine,
  'fieldhouse-bench-delivery',
  values['postgres-url'] ?? '',
);
const receiver = new Worker(RECEIVER, { eval: true });
const arrivals = new Map<string, number>();
let arrived: (() => void) | null = null;
let expected = 0;
const [{ port }] = (await once(receiver, 'message')) as [{ port: number }];
receiver.on('message', (message: { id: string; at: number }) => {
  arrivals.set(message.id, message.at);
  if (arrivals.size >= expected) arrived?.();
});
const waitForArrivals = (count: number) =>
  new Promise<void>((resolve) => {
    expected = count;
    arrived = resolve;
    if (arrivals.size >= count) resolve();
  });

const server = await startServer({
  ...loadConfig({}),
  port: 0,
  logLevel: 'silent',
  webhookAllow: ['127.0.0.0/8'],
  workerConcurrency: Number(values.concurrency),
  ...database.env,
});
const db = server.database.db;
const webhookId = (
  await db
    .insertInto('webhooks')
    .values({
      name: 'bench',
      url: `http://127.0.0.1:${port}/hook`,
      custom_payload: null,
      headers: JSON.stringify({ 'X-Bench': '1' }),
      events: JSON.stringify([
        { entity_type: 'item_type', event_types: ['update'], filters: null },
      ]),
      http_basic_user: null,
      http_basic_password: null,
      enabled: true,
      payload_api_version: '3',
      nested_items_in_payload: false,
      auto_retry: true,
      signing_secret: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
).id;

// Warm-up: connections, JIT, the receiver's keep-alive sockets.
await commitCalls(db, webhookId, 200);
await waitForArrivals(200);

// Drain: how fast a backlog is delivered.
arrivals.clear();
const drainStart = now();
await commitCalls(db, webhookId, drainCalls);
await waitForArrivals(drainCalls);
const drainSeconds = (now() - drainStart) / 1000;

// Latency: one committed event every 1/rate s, each its own transaction.
arrivals.clear();
const commits = new Map<string, number>();
const total = Math.round(rate * seconds);
const latencyStart = now();
for (let i = 0; i < total; i++) {
  const due = latencyStart + (i * 1000) / rate;
  const wait = due - now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const [id] = await commitCalls(db, webhookId, 1);
  if (id) commits.set(id, now());
}
const offeredSeconds = (now() - latencyStart) / 1000;
await waitForArrivals(total);
const latencies = [...commits].map(([id, at]) => (arrivals.get(id) ?? Number.NaN) - at);
latencies.sort((a, b) => a - b);

// Stopping the worker first lets the last attempts record before they are counted.
await server.worker.stop();
const { count: attempts } = await db
  .selectFrom('webhook_call_attempts')
  .select((eb) => eb.fn.countAll<string>().as('count'))
  .executeTakeFirstOrThrow();
await server.close();
await receiver.terminate();
await database.drop();

printTable([
  {
    db: engine,
    concurrency: Number(values.concurrency),
    'drain calls': drainCalls,
    'deliveries/s': drainCalls / drainSeconds,
    'steady events/s': total / offeredSeconds,
    'commit→receiver p50 ms': percentile(latencies, 50),
    'p99 ms': percentile(latencies, 99),
    'max ms': latencies[latencies.length - 1] ?? Number.NaN,
    'attempts logged': Number(attempts),
  },
]);
