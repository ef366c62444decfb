// Memory and start time of `fieldhouse serve` on a fresh embedded data directory, against a
// bare Node HTTP server and a bare Fastify server started and measured in the same run.
// - first 200: from spawning the command to the first 200 on /healthz, wall clock and the
//   server process's own CPU time (the CPU figure is the steadier one on a busy machine);
//   `npm start` first-ever (no cached bundle, no cached initdb) and warm (fresh data dir).
// - RSS of the server `npm start` runs: idle, after a workload through the official client
//   (schema and records), and after a full GC (forced through the inspector, which adds a
//   few MB to that figure).
// --before <checkout>: the same fieldhouse rows for another checkout (e.g. /work/main), in
// the same run, for a before/after comparison.
// Usage: npx tsx bench/footprint.ts [--warm-runs 3] [--records 300] [--before <checkout>]
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import { WebSocket } from 'undici';
import { cpuMs, percentile, printTable, rssMb } from './support.ts';

const { values } = parseArgs({
  options: {
    'warm-runs': { type: 'string', default: '3' },
    records: { type: 'string', default: '300' },
    before: { type: 'string' },
  },
});
const WARM_RUNS = Number(values['warm-runs']);
const RECORDS = Number(values.records);
const TOKEN = 'bench-footprint-token-00000001';
const scratch = mkdtempSync(join(tmpdir(), 'fieldhouse-footprint-'));

type Started = {
  child: ChildProcess;
  serverPid: number;
  url: string;
  ms: number;
  cpu: number;
  output: () => string;
};

/** The newest descendant of `pid` whose command line matches (npm → sh → node). */
function descendant(pid: number, commandLine: RegExp): number | null {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    try {
      const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), child]);
    } catch {
      // exited while we looked
    }
  }
  const queue = [pid];
  let found: number | null = null;
  while (queue.length > 0) {
    const next = queue.shift() ?? 0;
    try {
      const args = readFileSync(`/proc/${next}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (commandLine.test(args)) found = next;
    } catch {
      // exited while we looked
    }
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/** Spawns a server command (in a process group of its own) and waits for its first 200. */
async function start(
  command: string,
  args: string[],
  env: Record<string, string>,
  serverCommandLine: RegExp,
  cwd = process.cwd(),
): Promise<Started> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let url: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited:\n${output}`);
    url ??= /listening at (http:\/\/[^"\s]+)/.exec(output)?.[1];
    if (url) {
      const status = await fetch(`${url}/healthz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) break;
    }
    await sleep(5);
  }
  const ms = performance.now() - started;
  const serverPid = descendant(child.pid ?? 0, serverCommandLine) ?? 0;
  return { child, serverPid, url, ms, cpu: cpuMs(serverPid), output: () => output };
}

async function stop(server: Started): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = once(server.child, 'exit');
  process.kill(-(server.child.pid ?? 0), 'SIGTERM');
  await exited;
}

/** Forces a full GC in the server through the inspector, which SIGUSR1 opens. */
async function collectGarbage(server: Started): Promise<void> {
  process.kill(server.serverPid, 'SIGUSR1');
  let socketUrl: string | undefined;
  while (!socketUrl) {
    socketUrl = /Debugger listening on (ws:\/\/\S+)/.exec(server.output())?.[1];
    await sleep(10);
  }
  const socket = new WebSocket(socketUrl);
  await once(socket, 'open');
  const answered = once(socket, 'message');
  socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
  await answered;
  socket.close();
  await sleep(500);
}

/** Schema and records through the official client, as a small project's day would. */
async function workload(url: string): Promise<void> {
  const client = buildClient({ apiToken: TOKEN, baseUrl: url, autoRetry: false });
  const models = [];
  for (let m = 0; m < 10; m++) {
    const model = await client.itemTypes.create({ name: `Model ${m}`, api_key: `model${m}` });
    models.push(model);
    for (let f = 0; f < 10; f++) {
      const base = { label: `Field ${f}`, api_key: `field${f}` };
      const field = await client.fields.create(
        model.id,
        f % 2 === 0 ? { ...base, field_type: 'string' } : { ...base, field_type: 'integer' },
      );
      await client.fields.update(field.id, { hint: `hint ${f}` });
    }
  }
  const ids: string[] = [];
  for (let r = 0; r < RECORDS; r++) {
    const model = models[r % models.length];
    if (!model) continue;
    const record = await client.items.create({
      item_type: { type: 'item_type', id: model.id },
      field0: `Record ${r}`,
      field1: r,
    });
    ids.push(record.id);
  }
  for (const id of ids) await client.items.update(id, { field1: 0 });
  for (const model of models) {
    await client.items.rawList({ filter: { type: model.api_key }, page: { limit: 500 } });
    await client.fields.list(model.id);
  }
  await client.itemTypes.list();
}

/** Plain GETs, for the bare servers' "after workload" figure. */
async function getLoad(url: string): Promise<void> {
  for (let i = 0; i < 2000; i++) await (await fetch(`${url}/healthz`)).arrayBuffer();
}

const BARE_NODE = `import { createServer } from 'node:http';
const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('{"status":"ok"}');
});
server.listen(0, '127.0.0.1', () => console.log('listening at http://127.0.0.1:' + server.address().port));`;
const BARE_FASTIFY = `import Fastify from 'fastify';
const app = Fastify({ logger: true });
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: 0, host: '127.0.0.1' });`;

type Row = Record<string, string | number>;
const rows: Row[] = [];

async function measureMemory(
  name: string,
  launch: () => Promise<Started>,
  load: (url: string) => Promise<void>,
): Promise<void> {
  const server = await launch();
  try {
    await sleep(1000);
    const idle = rssMb(server.serverPid);
    await load(server.url);
    await sleep(1000);
    const loaded = rssMb(server.serverPid);
    await collectGarbage(server);
    rows.push({
      server: name,
      'first 200 ms': server.ms,
      'server CPU ms': server.cpu,
      'RSS idle MB': idle,
      'RSS after workload MB': loaded,
      'RSS after GC MB': rssMb(server.serverPid),
    });
    process.stderr.write(`measured: ${name}\n`);
  } finally {
    await stop(server);
  }
}

const nodeFlags = ['--inspect-port=127.0.0.1:0'];
const npmStart = (env: Record<string, string>, root: string) =>
  start('npm', ['start', '--silent'], env, /bin\/fieldhouse\.js/, root);
const fieldhouseEnv = (name: string, cacheDir?: string) => ({
  FIELDHOUSE_DATA_DIR: join(scratch, name),
  FIELDHOUSE_ADMIN_TOKEN: TOKEN,
  ...(cacheDir ? { FIELDHOUSE_CACHE_DIR: cacheDir } : {}),
});

/** The fieldhouse rows for one checkout: npm start first-ever and warm, then memory. */
async function measureFieldhouse(label: string, root: string): Promise<Row[]> {
  const env = (name: string) => fieldhouseEnv(`${label}-${name}`, join(scratch, `${label}-cache`));
  const freshStart = (name: string) => npmStart(env(name), root);
  // First-ever: no bundle for these sources yet, no initdb output cached.
  const bundles = join(root, '.cache');
  const cached = existsSync(bundles) ? readdirSync(bundles, { withFileTypes: true }) : [];
  for (const entry of cached) {
    if (entry.isFile() && entry.name.startsWith('fieldhouse-')) rmSync(join(bundles, entry.name));
  }
  const cold = await freshStart('first-ever');
  await stop(cold);
  const warm: Started[] = [];
  for (let run = 0; run < WARM_RUNS; run++) {
    const server = await freshStart(`warm-${run}`);
    warm.push(server);
    await stop(server);
  }
  // Started as users start it (npm start holds the server's node flags); NODE_OPTIONS lets
  // SIGUSR1 open the inspector on a free port for the GC figure.
  await measureMemory(
    `fieldhouse serve, embedded (${label})`,
    () => npmStart({ ...env('workload'), NODE_OPTIONS: nodeFlags.join(' ') }, root),
    workload,
  );
  const wall = warm.map((s) => s.ms).sort((a, b) => a - b);
  const cpu = warm.map((s) => s.cpu).sort((a, b) => a - b);
  return [
    {
      'npm start, fresh data dir': `${label}: first-ever`,
      'first 200 ms': cold.ms,
      'server CPU ms': cold.cpu,
    },
    {
      'npm start, fresh data dir': `${label}: warm, median of ${WARM_RUNS}`,
      'first 200 ms': percentile(wall, 50),
      'server CPU ms': percentile(cpu, 50),
    },
    {
      'npm start, fresh data dir': `${label}: warm, best of ${WARM_RUNS}`,
      'first 200 ms': wall[0] ?? Number.NaN,
      'server CPU ms': cpu[0] ?? Number.NaN,
    },
  ];
}

try {
  await measureMemory(
    'bare node:http (baseline)',
    () => start('node', [...nodeFlags, '--input-type=module', '-e', BARE_NODE], {}, /-e/),
    getLoad,
  );
  await measureMemory(
    'bare Fastify (baseline)',
    () => start('node', [...nodeFlags, '--input-type=module', '-e', BARE_FASTIFY], {}, /-e/),
    getLoad,
  );

  const starts = [];
  if (values.before) starts.push(...(await measureFieldhouse('before', values.before)));
  starts.push(...(await measureFieldhouse('this checkout', process.cwd())));
  printTable(rows);
  process.stdout.write('\n');
  printTable(starts);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
