import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import { runFieldhouse } from '../test/support/process.ts';
import {
  benchDatabase,
  cpuMs,
  percentile,
  printTable,
  quietWindowPercentile,
  rssMb,
} from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded' },
    updates: { type: 'string', default: '2000' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const TOKEN = 'bench-admin-token-000000001';
const updates = Number(values.updates);
const QUIET_WINDOW = 200;

async function timedStart(env: Record<string, string>) {
  const started = performance.now();
  // LOG_LEVEL=info: the listening line is how the start is timed; request logs go to a pipe.
  const server = runFieldhouse(['serve'], { ...env, FIELDHOUSE_ADMIN_TOKEN: TOKEN });
  const url = await server.listening;
  return { server, url, ms: performance.now() - started };
}

const database = await benchDatabase(
  values.db === 'postgres' ? 'postgres' : 'embedded',
  values['postgres-url'],
);
const env: Record<string, string> =
  database.engine === 'postgres'
    ? { DATABASE_URL: database.url }
    : { FIELDHOUSE_DATA_DIR: database.dataDir };
const cleanup = () => database.drop();
const cold = await timedStart(env);
await cold.server.stop();
const warm = await timedStart(env);
const client = buildClient({ apiToken: TOKEN, baseUrl: warm.url, autoRetry: false });

const model = await client.itemTypes.create({ name: 'Bench', api_key: 'bench' });
for (let i = 0; i < 50; i++) await client.itemTypes.update(model.id, { hint: `warmup ${i}` });
const serverPid = warm.server.child.pid ?? 0;
const cpuBefore = cpuMs(serverPid);
const samples: number[] = [];
for (let i = 0; i < updates; i++) {
  const t0 = performance.now();
  await client.itemTypes.update(i % 2 ? model.id : 'bench', { hint: `hint ${i}` });
  samples.push(performance.now() - t0);
}
const serverCpuMs = (cpuMs(serverPid) - cpuBefore) / updates;
// The machine may be shared: the quietest window shows what the code reaches unhindered.
const quietP50 = quietWindowPercentile(samples, QUIET_WINDOW, 50);
samples.sort((a, b) => a - b);
const rss = rssMb(serverPid);
await warm.server.stop();
await cleanup();

printTable([
  {
    db: values.db ?? 'embedded',
    updates,
    'update p50 ms': percentile(samples, 50),
    'update p99 ms': percentile(samples, 99),
    'quiet p50 ms': quietP50,
    'server CPU ms/update': serverCpuMs,
    'updates/s': 1000 / (samples.reduce((a, b) => a + b, 0) / samples.length),
    'cold start ms': cold.ms,
    'warm start ms': warm.ms,
    'steady RSS MB': rss,
  },
]);
