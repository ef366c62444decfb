// Benchmark: record create, update and read by id, and a filtered list page of 100 over
// 10,000 records, against Fieldhouse (embedded and PostgreSQL, a `fieldhouse serve`
// process) and Directus 11.3.5 (PostgreSQL and SQLite, as installed, with its defaults:
// bench/directus-server.ts), in turn, in one run, each on a fresh database. The same model
// on each: a collection with `title` (string), `category` (string, 10 values) and `score`
// (integer); the filter is `category = c3` (1,000 matches), the first page of 100.
// Fieldhouse's list also answers `meta.total_count`; Directus's, by default, no count.
// The list is timed twice: asked again and again (Fieldhouse answers it from its list
// cache after the first), and each time after a record update (read from the database;
// the server CPU of that row is the update's and the list's together).
// One keep-alive connection per server, one request at a time (raw HTTP, JSON bodies).
// --before <checkout> adds Fieldhouse rows for another checkout, same run.
// Usage: npx tsx bench/records-vs-directus.ts [--records 10000] [--requests 300]
//          [--servers fieldhouse-embedded,fieldhouse-postgres,directus-postgres,directus-sqlite]
//          [--before <checkout>]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import { Pool } from 'undici';
import { runFieldhouse } from '../test/support/process.ts';
import { installDirectus, startDirectus, TOKEN } from './directus-server.ts';
import { benchDatabase, cpuMs, percentile, printTable, serverEnv } from './support.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '300' },
    servers: {
      type: 'string',
      default: 'fieldhouse-embedded,fieldhouse-postgres,directus-postgres,directus-sqlite',
    },
    before: { type: 'string' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const RECORDS = Number(values.records);
const REQUESTS = Number(values.requests);
const CATEGORIES = 10;

type Call = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** What each server is asked, in its own API. */
type RecordsApi = {
  call: Call;
  create(i: number): Promise<string>;
  /** Many records at once, for the seed (as fast as the server allows). */
  seed(from: number, count: number): Promise<void>;
  update(id: string, i: number): Promise<unknown>;
  read(id: string): Promise<unknown>;
  list(): Promise<unknown>;
};

function caller(baseUrl: string, headers: Record<string, string>): { pool: Pool; call: Call } {
  const pool = new Pool(baseUrl, { connections: 8 });
  const call: Call = async (method, path, body) => {
    const response = await pool.request({
      method: method as 'GET',
      path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300)
      throw new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`);
    return text === '' ? null : JSON.parse(text);
  };
  return { pool, call };
}

const attributes = (i: number) => ({
  title: `Record ${i}`,
  category: `c${i % CATEGORIES}`,
  score: i,
});

async function fieldhouseApi(baseUrl: string): Promise<RecordsApi> {
  const client = buildClient({ apiToken: TOKEN, baseUrl, autoRetry: false });
  const model = await client.itemTypes.create({ name: 'Entry', api_key: 'entry' });
  await client.fields.create(model.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  await client.fields.create(model.id, {
    label: 'Category',
    api_key: 'category',
    field_type: 'string',
  });
  await client.fields.create(model.id, { label: 'Score', api_key: 'score', field_type: 'integer' });
  const { call } = caller(baseUrl, {
    authorization: `Bearer ${TOKEN}`,
    accept: 'application/json',
    'content-type': 'application/vnd.api+json',
    'x-api-version': '3',
  });
  const create = async (i: number) => {
    const created = (await call('POST', '/items', {
      data: {
        type: 'item',
        attributes: attributes(i),
        relationships: { item_type: { data: { type: 'item_type', id: model.id } } },
      },
    })) as { data: { id: string } };
    return created.data.id;
  };
  return {
    call,
    create,
    seed: async (from, count) => {
      // No bulk create in the CMA: eight at a time.
      let next = from;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < from + count) await create(next++);
        }),
      );
    },
    update: (id, i) =>
      call('PUT', `/items/${id}`, { data: { type: 'item', id, attributes: { score: i } } }),
    read: (id) => call('GET', `/items/${id}`),
    list: () =>
      call(
        'GET',
        `/items?filter[type]=${model.id}&filter[fields][category][eq]=c3&page[limit]=100`,
      ),
  };
}

async function directusApi(baseUrl: string): Promise<RecordsApi> {
  const { call } = caller(baseUrl, {
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
  });
  await call('POST', '/collections', {
    collection: 'entry',
    meta: {},
    schema: {},
    fields: [
      {
        field: 'id',
        type: 'integer',
        meta: { hidden: true },
        schema: { is_primary_key: true, has_auto_increment: true },
      },
      { field: 'title', type: 'string', meta: { interface: 'input' }, schema: {} },
      { field: 'category', type: 'string', meta: { interface: 'input' }, schema: {} },
      { field: 'score', type: 'integer', meta: { interface: 'input' }, schema: {} },
    ],
  });
  const create = async (i: number) => {
    const created = (await call('POST', '/items/entry', attributes(i))) as {
      data: { id: number };
    };
    return String(created.data.id);
  };
  return {
    call,
    create,
    seed: async (from, count) => {
      for (let start = from; start < from + count; start += 500) {
        const batch = [];
        for (let i = start; i < Math.min(from + count, start + 500); i++) batch.push(attributes(i));
        await call('POST', '/items/entry', batch);
      }
    },
    update: (id, i) => call('PATCH', `/items/entry/${id}`, { score: i }),
    read: (id) => call('GET', `/items/entry/${id}`),
    list: () => call('GET', '/items/entry?filter[category][_eq]=c3&limit=100'),
  };
}

type Server = { api: RecordsApi; pid: number; stop(): Promise<void> };

async function startFieldhouseServer(
  engine: 'embedded' | 'postgres',
  checkout: string,
): Promise<Server> {
  const database = await benchDatabase(engine, values['postgres-url']);
  const server = runFieldhouse(
    ['serve'],
    { ...serverEnv(database), FIELDHOUSE_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'info' },
    [process.execPath, '--max-semi-space-size=4', join(checkout, 'bin', 'fieldhouse.js')],
  );
  const baseUrl = (await server.listening).replace('[::1]', '127.0.0.1');
  return {
    api: await fieldhouseApi(baseUrl),
    pid: server.child.pid ?? 0,
    stop: async () => {
      await server.stop();
      await database.drop();
    },
  };
}

async function startDirectusServer(
  engine: 'postgres' | 'sqlite',
  scratch: string,
): Promise<Server> {
  installDirectus();
  const database =
    engine === 'postgres' ? await benchDatabase('postgres', values['postgres-url']) : null;
  const directus = await startDirectus(
    database?.engine === 'postgres'
      ? { DB_CLIENT: 'pg', DB_CONNECTION_STRING: database.url }
      : { DB_CLIENT: 'sqlite3', DB_FILENAME: join(scratch, 'directus.db') },
  );
  return {
    api: await directusApi(directus.baseUrl),
    pid: directus.child.pid ?? 0,
    stop: async () => {
      await directus.stop();
      await database?.drop();
    },
  };
}

type Op = 'create' | 'update' | 'read' | 'list' | 'list after a write';
const OPS: Op[] = ['create', 'update', 'read', 'list', 'list after a write'];

/** Runs each operation REQUESTS times, one at a time: ops/s, p50 and server CPU per op. */
async function measure(server: Server) {
  const { api } = server;
  await api.seed(0, RECORDS);
  // One list first: the writes are then timed with what a list leaves behind (Fieldhouse's
  // index on the filtered value), as they run in a project whose records are listed.
  await api.list();
  const ids: string[] = [];
  const results: Record<Op, { opsPerSecond: number; p50: number; cpu: number }> = {} as never;
  // `before` runs ahead of each request, untimed: ops/s and p50 are then the timed
  // requests' own (their times summed), the CPU per op that of both together (/proc counts
  // CPU in 10 ms ticks, too coarse to take one request's off).
  const timed = async (
    op: Op,
    run: (i: number) => Promise<unknown>,
    before?: (i: number) => Promise<unknown>,
  ) => {
    for (let i = 0; i < 20; i++) {
      await before?.(i);
      await run(i); // warm-up
    }
    const ms: number[] = [];
    const cpuBefore = cpuMs(server.pid);
    for (let i = 0; i < REQUESTS; i++) {
      await before?.(i);
      const t = performance.now();
      await run(i);
      ms.push(performance.now() - t);
    }
    const elapsed = ms.reduce((sum, each) => sum + each, 0);
    results[op] = {
      opsPerSecond: (REQUESTS * 1000) / elapsed,
      p50: percentile(
        ms.sort((a, b) => a - b),
        50,
      ),
      cpu: (cpuMs(server.pid) - cpuBefore) / REQUESTS,
    };
  };
  await timed('create', async (i) => ids.push(await api.create(RECORDS + i)));
  await timed('update', (i) => api.update(ids[i % ids.length] ?? '', i));
  await timed('read', (i) => api.read(ids[(i * 7) % ids.length] ?? ''));
  await timed('list', () => api.list());
  // A list is answered from what the server kept when no record changed since it was last
  // asked (Fieldhouse's list cache): each list here follows a record update, so it is read.
  await timed(
    'list after a write',
    () => api.list(),
    (i) => api.update(ids[i % ids.length] ?? '', REQUESTS + i),
  );
  return results;
}

const scratch = mkdtempSync(join(tmpdir(), 'records-vs-directus-'));
const all: Record<string, Awaited<ReturnType<typeof measure>>> = {};
try {
  const servers = (values.servers ?? '').split(',');
  const runs: [string, () => Promise<Server>][] = [];
  for (const name of servers) {
    const [kind, engine] = name.split('-');
    if (kind === 'fieldhouse') {
      const e = engine as 'embedded' | 'postgres';
      if (values.before) {
        const before = values.before;
        runs.push([`before ${name}`, () => startFieldhouseServer(e, before)]);
      }
      runs.push([name, () => startFieldhouseServer(e, process.cwd())]);
    } else runs.push([name, () => startDirectusServer(engine as 'postgres' | 'sqlite', scratch)]);
  }
  for (const [name, start] of runs) {
    const server = await start();
    try {
      all[name] = await measure(server);
      process.stdout.write(`${name}: ${JSON.stringify(all[name])}\n`);
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const rows: Record<string, string | number>[] = [];
for (const [name, results] of Object.entries(all)) {
  const engine = name.includes('postgres') ? 'postgres' : 'sqlite';
  const peer = all[`directus-${engine}`];
  for (const op of OPS) {
    const own = results[op];
    rows.push({
      server: name,
      op: op.startsWith('list') ? `filtered list of 100${op.slice('list'.length)}` : op,
      'ops/s': own.opsPerSecond,
      'p50 ms': own.p50,
      'server CPU ms/op': own.cpu,
      // Embedded Fieldhouse is set against Directus on SQLite: each one's file database.
      'ops/s ÷ directus, same engine': peer ? own.opsPerSecond / peer[op].opsPerSecond : '',
    });
  }
}
printTable(rows);
