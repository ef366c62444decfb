// Disk a project takes per write: `fieldhouse serve` (spawned from a checkout, on a fresh
// database) gets one record holding a large text value, then `--rounds` rounds of
// `--updates` updates of that record, each changing its title and keeping the large value
// (or, with --change-value, replacing it too). Optionally one webhook, answered 200 by a
// local receiver, subscribes to record updates. After each round the server is left
// running for `--settle` seconds (its worker delivers and prunes on its schedule), then
// stopped; the sizes are read once it has exited. The first round shows what a burst of
// writes takes before the space of what they replaced is reused; the next ones, the
// steady state.
// - PostgreSQL: pg_database_size, and pg_total_relation_size of the tables a write grows.
//   When the server runs with autovacuum off, the bench runs VACUUM after each round in
//   its stead (and says so): PostgreSQL reuses the space of deleted rows only once vacuumed.
// - embedded: the data directory's size on disk (`du`), and its pg_wal part.
// --root <checkout>: the checkout to run (default: this one), e.g. a checkout of main for
// a before/after comparison on the same inputs.
// Usage: npx tsx bench/disk.ts --engine embedded|postgres [--updates 100] [--rounds 2]
//          [--kb 900] [--change-value] [--webhook] [--settle 80] [--root <checkout>]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import pg from 'pg';
import { printTable, startServeProcess, stopServeProcess } from './support.ts';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'embedded' },
    updates: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '2' },
    kb: { type: 'string', default: '900' },
    'change-value': { type: 'boolean', default: false },
    webhook: { type: 'boolean', default: false },
    settle: { type: 'string', default: '80' },
    root: { type: 'string', default: process.cwd() },
  },
});
const ENGINE = values.engine === 'postgres' ? 'postgres' : 'embedded';
const UPDATES = Number(values.updates);
const VALUE_BYTES = Number(values.kb) * 1000;
const ROOT = resolve(values.root);
const TOKEN = 'bench-disk-token-000000000001';
const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const MB = 1024 * 1024;
const TABLES = [
  'public.events',
  'public.webhook_calls',
  'public.webhook_call_attempts',
  'env_1.items',
  'env_1.item_versions',
  'env_1.item_version_parts',
];

/** Random base64: a value PostgreSQL cannot compress, as uploaded text often is. */
function largeText(): string {
  return randomBytes(Math.ceil((VALUE_BYTES * 3) / 4))
    .toString('base64')
    .slice(0, VALUE_BYTES);
}

async function postgres<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function diskBytes(path: string): number {
  return Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]);
}

type Sizes = Record<string, number>;

async function measure(database: { url?: string; dataDir?: string }): Promise<Sizes> {
  if (database.dataDir) {
    const pgdata = join(database.dataDir, 'pgdata');
    return {
      'data dir MB': diskBytes(database.dataDir) / MB,
      'pg_wal MB': diskBytes(join(pgdata, 'pg_wal')) / MB,
    };
  }
  return postgres(database.url ?? '', async (client) => {
    const sizes: Sizes = {};
    const total = await client.query('SELECT pg_database_size(current_database()) AS bytes');
    sizes['database MB'] = Number(total.rows[0].bytes) / MB;
    for (const table of TABLES) {
      const result = await client.query(
        'SELECT coalesce(pg_total_relation_size(to_regclass($1)), 0) AS bytes',
        [table],
      );
      sizes[`${table.split('.')[1]} MB`] = Number(result.rows[0].bytes) / MB;
    }
    return sizes;
  });
}

/** VACUUM, as autovacuum would have, when the server runs with it off; true if it did. */
async function vacuumWithoutAutovacuum(url: string): Promise<boolean> {
  return postgres(url, async (client) => {
    const setting = await client.query('SHOW autovacuum');
    if (setting.rows[0].autovacuum === 'on') return false;
    await client.query('VACUUM');
    return true;
  });
}

const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.end('ok'));
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const scratch = mkdtempSync(join(tmpdir(), 'fieldhouse-disk-'));
const databaseName = `fieldhouse_disk_${Date.now()}`;
const database =
  ENGINE === 'postgres'
    ? { url: ADMIN_URL.replace(/\/postgres$/, `/${databaseName}`) }
    : { dataDir: join(scratch, 'data') };
if (database.url)
  await postgres(ADMIN_URL, (client) => client.query(`CREATE DATABASE ${databaseName}`));
const env = {
  ...(database.url
    ? { DATABASE_URL: database.url }
    : { FIELDHOUSE_DATA_DIR: database.dataDir ?? '' }),
  FIELDHOUSE_CACHE_DIR: join(ROOT, '.cache'),
  FIELDHOUSE_WEBHOOK_ALLOW: '127.0.0.0/8',
};
const rows: Record<string, string | number>[] = [];
try {
  let server = await startServeProcess(ROOT, { FIELDHOUSE_ADMIN_TOKEN: TOKEN, ...env });
  const client = buildClient({ apiToken: TOKEN, baseUrl: server.url, autoRetry: false });
  const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  await client.fields.create(model.id, { label: 'Title', api_key: 'title', field_type: 'string' });
  await client.fields.create(model.id, { label: 'Body', api_key: 'body', field_type: 'text' });
  if (values.webhook) {
    await client.webhooks.create({
      name: 'Bench',
      url: receiverUrl,
      headers: {},
      events: [{ entity_type: 'item', event_types: ['update'] }],
      custom_payload: null,
      http_basic_user: null,
      http_basic_password: null,
      enabled: true,
      payload_api_version: '3',
      nested_items_in_payload: false,
      auto_retry: true,
    });
  }
  const record = await client.items.create({
    item_type: { type: 'item_type', id: model.id },
    title: 'v0',
    body: largeText(),
  });
  await stopServeProcess(server.child);
  let before = await measure(database);
  for (let round = 1; round <= Number(values.rounds); round++) {
    server = await startServeProcess(ROOT, { FIELDHOUSE_ADMIN_TOKEN: TOKEN, ...env });
    const again = buildClient({ apiToken: TOKEN, baseUrl: server.url, autoRetry: false });
    for (let update = 1; update <= UPDATES; update++) {
      await again.items.update(record.id, {
        title: `r${round}-v${update}`,
        ...(values['change-value'] ? { body: largeText() } : {}),
      });
    }
    await sleep(Number(values.settle) * 1000);
    await stopServeProcess(server.child);
    const vacuumed = database.url ? await vacuumWithoutAutovacuum(database.url) : false;
    const after = await measure(database);
    for (const key of Object.keys(before)) {
      rows.push({
        [`${ENGINE}, ${UPDATES} updates`]: `round ${round}: ${key}${vacuumed ? ' (VACUUM by the bench)' : ''}`,
        before: before[key] ?? 0,
        after: after[key] ?? 0,
        'per update MB': ((after[key] ?? 0) - (before[key] ?? 0)) / UPDATES,
      });
    }
    before = after;
  }
  printTable(rows);
} finally {
  receiver.close();
  if (database.url)
    await postgres(ADMIN_URL, (client) =>
      client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`),
    );
  rmSync(scratch, { recursive: true, force: true });
}
