// Benchmark: hot-path latency of a real `fieldhouse serve` process against a bare Fastify
// server answering the same routes with the same documents (static), both started here,
// in one run. Raw HTTP on one keep-alive connection per server, one request at a time;
// the servers take turns in blocks, so a neighbour's load hits them alike.
// Prints per path p50/p99 of each server, their ratio, and the statements Fieldhouse sent
// per request (FIELDHOUSE_COUNT_QUERIES=1 makes it report them in a header).
// A third server, the floor, is the bare one doing the least database work Fieldhouse's
// rules allow on the same engine: a read sends one statement on PostgreSQL (what lets
// the next request to any process see a change committed through another) and none
// embedded (the one process hears every commit); a write sends its change and COMMIT,
// two round trips (a change and its event commit together, durably). `floor/bare` is
// then how far above the bare server any correct implementation starts.
// Usage: npx tsx bench/latency.ts [--db embedded|postgres] [--requests 2000] [--block 200]
//                                 [--cpu-prof DIR] [--only REGEX] [--webhooks N]
//                                 [--root <checkout>]
// --only keeps the paths whose name matches (e.g. --only PUT), to profile them alone.
// --webhooks N gives Fieldhouse N enabled webhooks that want every record and model event
// (delivered to a local receiver): what webhooks add to a change.
// --root runs the Fieldhouse server of another checkout (an older one, for a before/after
// pair of runs) against this bench's bare and floor servers.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import Fastify from 'fastify';
import pg from 'pg';
import { Client } from 'undici';
import { cacheDir } from '../src/config.ts';
import { openEmbedded } from '../src/db/engine/embedded.ts';
import { embeddedPool } from '../src/db/engine/open-embedded.ts';
import { buildWebhook } from '../test/support/factories.ts';
import { startReceiver } from '../test/support/receiver.ts';
import { benchDatabase, cpuMs, percentile, printTable, serverEnv } from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded' },
    requests: { type: 'string', default: '2000' },
    block: { type: 'string', default: '200' },
    'cpu-prof': { type: 'string' },
    only: { type: 'string' },
    webhooks: { type: 'string', default: '0' },
    root: { type: 'string' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    // Internal: run as the bare server, answering the documents in this file.
    bare: { type: 'string' },
    // Internal, with --bare: run as the floor server on this database
    // (`postgres:<url>` or `embedded:<data dir>`).
    floor: { type: 'string' },
  },
});

type Method = 'GET' | 'PUT' | 'POST';
/** `route` is what the bare server serves it as; `status` what both answer. */
type Path = {
  name: string;
  method: Method;
  url: string;
  route: string;
  status: 200 | 201;
  body?: (i: number) => string;
};
/** What the bare server answers, by `${method} ${route}`. */
type Documents = Record<string, { status: number; document: unknown }>;

/**
 * The bare server: the same routes, the documents Fieldhouse answered, nothing else; or,
 * given the database work of the floor, that work before each answer.
 */
async function serveBare(file: string, work: DatabaseWork | null): Promise<void> {
  const documents = JSON.parse(readFileSync(file, 'utf8')) as Documents;
  const app = Fastify();
  const json = ['application/json', 'application/vnd.api+json'];
  app.addContentTypeParser(json, { parseAs: 'string' }, (_request, body, done) => {
    done(null, JSON.parse(body as string));
  });
  for (const [key, { status, document }] of Object.entries(documents)) {
    const [method, url] = key.split(' ') as [Method, string];
    app.route({
      method,
      url,
      handler: async (_request, reply) => {
        await (method === 'GET' ? work?.read() : work?.write());
        return reply.status(status).send(document);
      },
    });
  }
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`bare listening at ${address}\n`);
}

/** The least database work of a read and of a write, on one engine. */
type DatabaseWork = { read(): Promise<void>; write(): Promise<void> };

/**
 * The floor's database work, through the driver Fieldhouse uses on that engine
 * (node-postgres; embedded, over PGlite's bridge with its messages batched as
 * Fieldhouse sends them): a read is one prepared statement on PostgreSQL and nothing
 * embedded; a write is `begin; update …` in one round trip (as Fieldhouse folds BEGIN),
 * then `commit`.
 */
async function floorWork(spec: string): Promise<DatabaseWork> {
  // `embedded:<data dir>` or `postgres:<url>`: the target may hold colons of its own.
  const colon = spec.indexOf(':');
  const engine = spec.slice(0, colon);
  const target = spec.slice(colon + 1);
  const pool =
    engine === 'embedded'
      ? embeddedPool(await openEmbedded(target, cacheDir()))
      : new pg.Pool({ connectionString: target, max: 1 });
  await pool.query(
    'create table if not exists bench_floor (id int primary key, n bigint not null); ' +
      'insert into bench_floor values (1, 0) on conflict do nothing',
  );
  const select = { name: 'floor_read', text: 'select n from bench_floor where id = $1' };
  return {
    read: async () => {
      if (engine !== 'embedded') await pool.query({ ...select, values: [1] });
    },
    write: async () => {
      const client = await pool.connect();
      try {
        await client.query('begin; update bench_floor set n = n + 1 where id = 1');
        await client.query('commit');
      } finally {
        client.release();
      }
    },
  };
}

if (values.bare) {
  await serveBare(values.bare, values.floor ? await floorWork(values.floor) : null);
} else {
  await main();
}

/** Starts a process and resolves with the URL its first line matching `pattern` gives. */
async function startServer(
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
  cwd = process.cwd(),
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let seen = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (!match) return;
      // From here on the output (request logs) is drained unread, as a log shipper would.
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      resolve((match[1] ?? '').replace('[::1]', '127.0.0.1'));
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${seen}`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function main(): Promise<void> {
  const TOKEN = 'bench-admin-token-000000003';
  const requests = Number(values.requests);
  const block = Number(values.block);
  const database = await benchDatabase(
    values.db === 'postgres' ? 'postgres' : 'embedded',
    values['postgres-url'],
  );
  const scratch = mkdtempSync(join(tmpdir(), 'fieldhouse-latency-'));
  const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
  const webhooks = Number(values.webhooks);
  const receiver = webhooks > 0 ? await startReceiver() : null;
  const fieldhouse = await startServer(
    [...nodeArgs, 'bin/fieldhouse.js', 'serve'],
    {
      ...serverEnv(database),
      FIELDHOUSE_ADMIN_TOKEN: TOKEN,
      FIELDHOUSE_COUNT_QUERIES: process.env.FIELDHOUSE_COUNT_QUERIES ?? '1',
      ...(receiver ? { FIELDHOUSE_WEBHOOK_ALLOW: '127.0.0.1/32' } : {}),
      LOG_LEVEL: 'info',
      PORT: '0',
    },
    /Server listening at (http:\/\/[^"\s]+)/,
    values.root,
  );
  let bare: { child: ChildProcess; url: string } | null = null;
  let floor: { child: ChildProcess; url: string } | null = null;
  try {
    // A model of ten fields and one record: the shapes every path answers.
    const client = buildClient({ apiToken: TOKEN, baseUrl: fieldhouse.url, autoRetry: false });
    const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
    let field = { id: '' };
    for (let i = 0; i < 10; i++) {
      const created = await client.fields.create(model.id, {
        label: `Field ${i}`,
        api_key: `field${i}`,
        field_type: 'string',
      });
      if (i === 0) field = created;
    }
    const item = await client.items.create({ item_type: model, field0: 'first' });
    for (let i = 0; receiver && i < webhooks; i++)
      await buildWebhook(client, {
        url: `${receiver.url}/hook/${i}`,
        events: [
          { entity_type: 'item', event_types: ['create', 'update', 'delete'] },
          { entity_type: 'item_type', event_types: ['create', 'update', 'delete'] },
        ],
      });

    const allPaths: Path[] = [
      {
        name: 'GET /item-types/{id}',
        method: 'GET',
        url: `/item-types/${model.id}`,
        route: '/item-types/:id',
        status: 200,
      },
      {
        name: 'GET /fields/{id}',
        method: 'GET',
        url: `/fields/${field.id}`,
        route: '/fields/:id',
        status: 200,
      },
      {
        name: 'GET /items/{id}',
        method: 'GET',
        url: `/items/${item.id}`,
        route: '/items/:id',
        status: 200,
      },
      {
        name: 'PUT /fields/{id}',
        method: 'PUT',
        url: `/fields/${field.id}`,
        route: '/fields/:id',
        status: 200,
        body: (i) =>
          JSON.stringify({ data: { type: 'field', id: field.id, attributes: { hint: `h${i}` } } }),
      },
      {
        name: 'PUT /item-types/{id}',
        method: 'PUT',
        url: `/item-types/${model.id}`,
        route: '/item-types/:id',
        status: 200,
        body: (i) =>
          JSON.stringify({
            data: { type: 'item_type', id: model.id, attributes: { hint: `h${i}` } },
          }),
      },
      {
        name: 'PUT /items/{id}',
        method: 'PUT',
        url: `/items/${item.id}`,
        route: '/items/:id',
        status: 200,
        body: (i) =>
          JSON.stringify({ data: { type: 'item', id: item.id, attributes: { field1: `v${i}` } } }),
      },
      {
        // A new record with each request: what a content import sends.
        name: 'POST /items',
        method: 'POST',
        url: '/items',
        route: '/items',
        status: 201,
        body: (i) =>
          JSON.stringify({
            data: {
              type: 'item',
              attributes: { field0: `new ${i}` },
              relationships: { item_type: { data: { type: 'item_type', id: model.id } } },
            },
          }),
      },
    ];
    const only = values.only === undefined ? null : new RegExp(values.only);
    const paths = allPaths.filter((path) => !only || only.test(path.name));
    const headers = {
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json',
      'content-type': 'application/vnd.api+json',
      'x-api-version': '3',
    };
    const fieldhouseHttp = new Client(fieldhouse.url, { pipelining: 1 });
    const call = async (http: Client, path: Path, i: number) => {
      const response = await http.request({
        method: path.method,
        path: path.url,
        headers,
        body: path.body?.(i),
      });
      const text = await response.body.text();
      if (response.statusCode !== path.status) {
        throw new Error(`${path.method} ${path.url}: ${response.statusCode} ${text}`);
      }
      return { text, queries: Number(response.headers['x-fieldhouse-queries'] ?? Number.NaN) };
    };

    // The bare server answers exactly what Fieldhouse answered.
    const documents: Documents = {};
    for (const path of paths) {
      documents[`${path.method} ${path.route}`] = {
        status: path.status,
        document: JSON.parse((await call(fieldhouseHttp, path, 0)).text),
      };
    }
    const documentsFile = join(scratch, 'documents.json');
    writeFileSync(documentsFile, JSON.stringify(documents));
    bare = await startServer(
      ['--import', 'tsx', 'bench/latency.ts', '--bare', documentsFile],
      {},
      /bare listening at (http:\/\/\S+)/,
    );
    const bareHttp = new Client(bare.url, { pipelining: 1 });
    const floorDatabase =
      database.engine === 'postgres'
        ? `postgres:${database.url}`
        : `embedded:${join(scratch, 'floor')}`;
    floor = await startServer(
      ['--import', 'tsx', 'bench/latency.ts', '--bare', documentsFile, '--floor', floorDatabase],
      {},
      /bare listening at (http:\/\/\S+)/,
    );
    const floorHttp = new Client(floor.url, { pipelining: 1 });

    const rows: Record<string, string | number>[] = [];
    for (const path of paths) {
      const samples = { bare: [] as number[], floor: [] as number[], fieldhouse: [] as number[] };
      const cpu = { bare: 0, floor: 0, fieldhouse: 0 };
      const queries: number[] = [];
      let i = 0;
      const servers = {
        bare: { http: bareHttp, pid: bare.child.pid ?? 0 },
        floor: { http: floorHttp, pid: floor.child.pid ?? 0 },
        fieldhouse: { http: fieldhouseHttp, pid: fieldhouse.child.pid ?? 0 },
      };
      const run = async (server: keyof typeof servers, n: number, measured: boolean) => {
        const { http, pid } = servers[server];
        const cpuBefore = cpuMs(pid);
        for (let k = 0; k < n; k++) {
          const t0 = performance.now();
          const { queries: count } = await call(http, path, ++i);
          const ms = performance.now() - t0;
          if (!measured) continue;
          samples[server].push(ms);
          if (server === 'fieldhouse') queries.push(count);
        }
        if (measured) cpu[server] += cpuMs(pid) - cpuBefore;
      };
      // Warm-up: JIT, prepared statements, caches.
      for (const server of ['bare', 'floor', 'fieldhouse'] as const)
        await run(server, block, false);
      for (let done = 0; done < requests; done += block) {
        const n = Math.min(block, requests - done);
        for (const server of ['bare', 'floor', 'fieldhouse'] as const) await run(server, n, true);
      }
      const bareSorted = samples.bare.sort((a, b) => a - b);
      const floorP50 = percentile(
        samples.floor.sort((a, b) => a - b),
        50,
      );
      const fhSorted = samples.fieldhouse.sort((a, b) => a - b);
      queries.sort((a, b) => a - b);
      rows.push({
        path: path.name,
        'bare p50': percentile(bareSorted, 50),
        'bare p99': percentile(bareSorted, 99),
        'fieldhouse p50': percentile(fhSorted, 50),
        'fieldhouse p99': percentile(fhSorted, 99),
        'ratio p50': percentile(fhSorted, 50) / percentile(bareSorted, 50),
        'ratio p99': percentile(fhSorted, 99) / percentile(bareSorted, 99),
        'floor p50': floorP50,
        'floor/bare': floorP50 / percentile(bareSorted, 50),
        'fieldhouse/floor': percentile(fhSorted, 50) / floorP50,
        // CPU time the server process spent per request: far less sensitive than latency
        // to other work on the machine (PostgreSQL's own CPU is not in it).
        'bare CPU/req': cpu.bare / requests,
        'fieldhouse CPU/req': cpu.fieldhouse / requests,
        'ratio CPU': cpu.fieldhouse / cpu.bare,
        queries: percentile(queries, 50),
        // The issue sets no target for a create.
        target: path.method === 'GET' ? '≤ 1.5' : path.method === 'PUT' ? '≤ 2.5' : '–',
      });
    }
    await fieldhouseHttp.close();
    await bareHttp.close();
    await floorHttp.close();
    process.stdout.write(
      `engine=${database.engine} requests/path/server=${requests} block=${block} (ms; CPU/req = server process CPU ms per request; queries = statements per request, median)\n`,
    );
    printTable(rows);
  } finally {
    if (bare) await stop(bare.child);
    if (floor) await stop(floor.child);
    await stop(fieldhouse.child);
    await receiver?.close();
    await database.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
