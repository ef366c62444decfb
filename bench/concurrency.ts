// Benchmark: a mixed record workload (70 % reads by id, 20 % updates, 10 % creates) from
// many clients at once against 1..N `fieldhouse serve` processes sharing one database,
// for each engine (embedded: one process, it owns its data directory). While it runs, the
// bench samples `pg_stat_activity` every 50 ms (PostgreSQL) and counts the backends
// waiting on a lock, by lock kind: writes that queue behind one lock show up there.
// It prints ops/s, p50/p99 per operation kind, the lock waits, and each server's CPU per
// operation (from /proc), so a CPU-bound run can be told from a lock-bound one.
// --before <checkout> runs the same rows against another checkout's server (e.g. a copy
// of main) in the same run, for a before/after ratio.
// Usage: npx tsx bench/concurrency.ts [--db embedded,postgres] [--processes 1,2,3]
//          [--clients 4,16,64] [--seconds 10] [--records 500] [--before <checkout>]
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import pg from 'pg';
import { Pool } from 'undici';
import type { TestDatabase } from '../test/support/databases.ts';
import { runFieldhouse } from '../test/support/process.ts';
import { benchDatabase, cpuMs, percentile, printTable, serverEnv } from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded,postgres' },
    processes: { type: 'string', default: '1,2,3' },
    clients: { type: 'string', default: '4,16,64' },
    seconds: { type: 'string', default: '10' },
    records: { type: 'string', default: '500' },
    before: { type: 'string' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const TOKEN = 'bench-concurrency-token-0000001';
const list = (text: string | undefined) => (text ?? '').split(',').filter(Boolean);
const seconds = Number(values.seconds);

type Server = {
  baseUrl: string;
  pool: Pool;
  pid: number;
  /** Null while the process runs; else how it ended, with the end of what it wrote. */
  ended(): string | null;
  stop(): Promise<void>;
};

async function startServer(database: TestDatabase, checkout: string): Promise<Server> {
  const server = runFieldhouse(
    ['serve'],
    { ...serverEnv(database), FIELDHOUSE_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'info' },
    [process.execPath, '--max-semi-space-size=4', join(checkout, 'bin', 'fieldhouse.js')],
  );
  const url = (await server.listening).replace('[::1]', '127.0.0.1');
  return {
    baseUrl: url,
    pool: new Pool(url, { connections: 64, pipelining: 1 }),
    pid: server.child.pid ?? 0,
    ended: () =>
      server.child.exitCode === null && server.child.signalCode === null
        ? null
        : `exit ${server.child.exitCode ?? server.child.signalCode}:\n${server.output().slice(-4000)}`,
    stop: async () => {
      await server.stop();
    },
  };
}

const HEADERS = {
  authorization: `Bearer ${TOKEN}`,
  accept: 'application/json',
  'content-type': 'application/vnd.api+json',
  'x-api-version': '3',
};

async function call(pool: Pool, method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown) {
  const response = await pool.request({
    method,
    path,
    headers: HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300)
    throw new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text) as { data: { id: string } };
}

/** A model with two fields and `records` records, made through the official client. */
async function setUp(baseUrl: string, records: number) {
  const client = buildClient({ apiToken: TOKEN, baseUrl, autoRetry: false });
  const model = await client.itemTypes.create({ name: 'Note', api_key: 'note' });
  await client.fields.create(model.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  await client.fields.create(model.id, { label: 'Count', api_key: 'count', field_type: 'integer' });
  const ids: string[] = [];
  for (let i = 0; i < records; i++)
    ids.push((await client.items.create({ item_type: model, title: `Note ${i}`, count: i })).id);
  return { modelId: model.id, ids };
}

type Kind = 'read' | 'update' | 'create';
type Run = { ops: number; ms: Record<Kind, number[]>; errors: number; firstError?: string };

async function workload(
  pools: Pool[],
  clients: number,
  modelId: string,
  ids: string[],
): Promise<Run> {
  const run: Run = { ops: 0, ms: { read: [], update: [], create: [] }, errors: 0 };
  const until = performance.now() + seconds * 1000;
  let turn = 0;
  const one = async (pool: Pool) => {
    const dice = Math.random();
    const kind: Kind = dice < 0.7 ? 'read' : dice < 0.9 ? 'update' : 'create';
    const id = ids[Math.floor(Math.random() * ids.length)] ?? '';
    const started = performance.now();
    try {
      if (kind === 'read') await call(pool, 'GET', `/items/${id}`);
      else if (kind === 'update')
        await call(pool, 'PUT', `/items/${id}`, {
          data: { type: 'item', id, attributes: { count: Math.floor(Math.random() * 1e6) } },
        });
      else {
        const created = await call(pool, 'POST', '/items', {
          data: {
            type: 'item',
            attributes: { title: 'new', count: 0 },
            relationships: { item_type: { data: { type: 'item_type', id: modelId } } },
          },
        });
        ids.push(created.data.id);
      }
      run.ms[kind].push(performance.now() - started);
      run.ops++;
    } catch (error) {
      run.errors++;
      run.firstError ??= String(error);
    }
  };
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const pool = pools[turn++ % pools.length] as Pool;
      while (performance.now() < until) await one(pool);
    }),
  );
  return run;
}

type LockSamples = { samples: number; withWait: number; waiting: number; max: number };

/** Samples the backends of `database` waiting on a lock until `stop` is set. */
function sampleLockWaits(url: string, byKind: Map<string, number>) {
  const totals: LockSamples = { samples: 0, withWait: 0, waiting: 0, max: 0 };
  let stopped = false;
  const done = (async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      while (!stopped) {
        const { rows } = await client.query<{ wait: string; n: string }>(
          `SELECT wait_event AS wait, count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'
           GROUP BY wait_event`,
        );
        const waiting = rows.reduce((sum, row) => sum + Number(row.n), 0);
        for (const row of rows) byKind.set(row.wait, (byKind.get(row.wait) ?? 0) + Number(row.n));
        totals.samples++;
        totals.waiting += waiting;
        if (waiting > 0) totals.withWait++;
        totals.max = Math.max(totals.max, waiting);
        await sleep(50);
      }
    } finally {
      await client.end();
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await done;
      return totals;
    },
  };
}

const p = (samples: number[], q: number) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    q,
  );

const checkouts: [string, string][] = [['this', process.cwd()]];
if (values.before) checkouts.unshift(['before', values.before]);

const rows: Record<string, string | number>[] = [];
for (const engine of list(values.db) as ('embedded' | 'postgres')[]) {
  const processCounts = engine === 'embedded' ? [1] : list(values.processes).map(Number);
  for (const processes of processCounts) {
    for (const clients of list(values.clients).map(Number)) {
      for (const [name, checkout] of checkouts) {
        const database = await benchDatabase(engine, values['postgres-url']);
        const servers: Server[] = [];
        try {
          for (let i = 0; i < processes; i++) servers.push(await startServer(database, checkout));
          const first = servers[0] as Server;
          const { modelId, ids } = await setUp(first.baseUrl, Number(values.records));
          const byKind = new Map<string, number>();
          const sampler =
            database.engine === 'postgres' ? sampleLockWaits(database.url, byKind) : null;
          const cpuBefore = servers.map((server) => cpuMs(server.pid));
          const started = performance.now();
          const run = await workload(
            servers.map((server) => server.pool),
            clients,
            modelId,
            ids,
          );
          const elapsed = (performance.now() - started) / 1000;
          const locks = await sampler?.stop();
          // A server that died under the workload is a finding, not a figure: say how.
          for (const server of servers) {
            const ended = server.ended();
            if (ended) throw new Error(`${name}'s server ended during the workload, ${ended}`);
          }
          const cpu = servers.map((server, i) => cpuMs(server.pid) - (cpuBefore[i] ?? 0));
          const all = [...run.ms.read, ...run.ms.update, ...run.ms.create];
          rows.push({
            server: name,
            engine,
            processes,
            clients,
            'ops/s': run.ops / elapsed,
            'p50 ms': p(all, 50),
            'p99 ms': p(all, 99),
            'read p50': p(run.ms.read, 50),
            'update p50': p(run.ms.update, 50),
            'create p50': p(run.ms.create, 50),
            errors: run.errors,
            'lock-wait samples %': locks ? (100 * locks.withWait) / Math.max(1, locks.samples) : '',
            'waiting mean/max': locks
              ? `${(locks.waiting / Math.max(1, locks.samples)).toFixed(1)}/${locks.max}`
              : '',
            'waits by kind': [...byKind].map(([kind, n]) => `${kind}:${n}`).join(' '),
            'server CPU ms/op': cpu.reduce((a, b) => a + b, 0) / Math.max(1, run.ops),
            'CPU ms/op per process': cpu
              .map((ms) => (ms / Math.max(1, run.ops)).toFixed(2))
              .join('/'),
          });
          if (run.firstError) process.stderr.write(`first error: ${run.firstError}\n`);
          process.stdout.write(`${JSON.stringify(rows.at(-1))}\n`);
        } finally {
          for (const server of servers) {
            await server.pool.close();
            await server.stop();
          }
          await database.drop();
        }
      }
    }
  }
}
process.stdout.write('\n');
printTable(rows);
