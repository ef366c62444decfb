// Benchmark: the schema workload (bench/schema-workload-phases.ts) against Fieldhouse and
// Directus 11.3.5, in turn, in one run, each on a fresh database per round: the issue's
// "≥ 30x Directus" target, measured rather than quoted. Directus runs as installed, with
// its defaults (schema cache on), on PostgreSQL and on SQLite (its quick start's
// database; `--directus-db` picks one); its calls are the same schema changes
// through its REST API: a collection per model, a field per field, `meta.note` for the
// hint, and a flow triggered by collection updates for each webhook (created and changed
// by one request each, as Fieldhouse's are).
// Directus is installed on first use into .cache/directus-11.3.5 (npm, about 500 MB; its
// SQLite driver is built from source when npm runs no install scripts).
// Usage: npx tsx bench/directus.ts [--rounds 3] [--directus-db postgres,sqlite]
//                                  [--postgres-url URL]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startReceiver } from '../test/support/receiver.ts';
import { installDirectus, startDirectus, TOKEN } from './directus-server.ts';
import { fieldhouseSchemaApi, startFieldhouse } from './fieldhouse-schema-api.ts';
import {
  type FieldType,
  opsPerSecond,
  type Phase,
  phaseRows,
  runSchemaWorkload,
  type SchemaApi,
} from './schema-workload-phases.ts';
import { benchDatabase, percentile, printTable } from './support.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    'directus-db': { type: 'string', default: 'postgres,sqlite' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
/** Directus's type (and interface) for each of the workload's field types. */
const DIRECTUS_TYPES: Record<FieldType, { type: string; interface: string }> = {
  string: { type: 'string', interface: 'input' },
  text: { type: 'text', interface: 'input-multiline' },
  integer: { type: 'integer', interface: 'input' },
  float: { type: 'float', interface: 'input' },
  boolean: { type: 'boolean', interface: 'boolean' },
  date: { type: 'date', interface: 'datetime' },
  date_time: { type: 'dateTime', interface: 'datetime' },
  color: { type: 'string', interface: 'select-color' },
  json: { type: 'json', interface: 'input-code' },
  // Directus's point type needs PostGIS; the value is a small object either way.
  lat_lon: { type: 'json', interface: 'input-code' },
  seo: { type: 'json', interface: 'input-code' },
  slug: { type: 'string', interface: 'input' },
  video: { type: 'json', interface: 'input-code' },
  file: { type: 'uuid', interface: 'file' },
  gallery: { type: 'json', interface: 'input-code' },
};

function directusSchemaApi(baseUrl: string): SchemaApi {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text === '' ? null : (JSON.parse(text) as { data: Record<string, unknown> });
  };
  return {
    createModel: async (m) => {
      await call('POST', '/collections', { collection: `model${m}`, meta: {}, schema: {} });
      return `model${m}`;
    },
    createField: async (collection, f, fieldType) => {
      const { type, interface: face } = DIRECTUS_TYPES[fieldType];
      await call('POST', `/fields/${collection}`, {
        field: `field${f}`,
        type,
        meta: { interface: face },
        schema: {},
      });
      return `${collection}/field${f}`;
    },
    updateField: (id, i) => call('PATCH', `/fields/${id}`, { meta: { note: `updated ${i}` } }),
    updateModel: (id, i) => call('PATCH', `/collections/${id}`, { meta: { note: `updated ${i}` } }),
    createHook: async (w) => {
      const created = await call('POST', '/flows', {
        name: `Webhook ${w}`,
        status: 'active',
        trigger: 'event',
        accountability: 'all',
        options: { type: 'action', scope: ['collections.update'] },
      });
      return String(created?.data.id);
    },
    updateHook: (id, i) => call('PATCH', `/flows/${id}`, { description: `X-Revision ${i}` }),
    listModels: () => call('GET', '/collections'),
    listFields: (collection) => call('GET', `/fields/${collection}`),
  };
}

/** The median of a few rounds (nearest rank: one of them). */
const median = (list: number[]) =>
  percentile(
    [...list].sort((a, b) => a - b),
    50,
  );

const directusEngines = (values['directus-db'] ?? '').split(',').map((engine) => {
  if (engine !== 'postgres' && engine !== 'sqlite')
    throw new Error(`--directus-db: "${engine}" is neither postgres nor sqlite`);
  return engine;
});
installDirectus();
const receiver = await startReceiver();
const hookUrl = (w: number) => `${receiver.url}/hook/${w}`;
const results: Record<string, number[]> = {};
const record = (name: string, phases: Phase[]) => {
  results[name] = [...(results[name] ?? []), opsPerSecond(phases)];
  return phases;
};
/** The last round's phases of each Directus run, to show where its time goes. */
const lastPhases: Record<string, Phase[]> = {};
const scratch = mkdtempSync(join(tmpdir(), 'fieldhouse-directus-'));
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const engine of ['embedded', 'postgres'] as const) {
      const database = await benchDatabase(engine, values['postgres-url']);
      const fieldhouse = await startFieldhouse(database, TOKEN);
      try {
        record(
          `fieldhouse ${engine}`,
          await runSchemaWorkload(fieldhouseSchemaApi(fieldhouse.client), hookUrl),
        );
      } finally {
        await fieldhouse.stop();
        await database.drop();
      }
    }
    for (const engine of directusEngines) {
      const database =
        engine === 'postgres' ? await benchDatabase('postgres', values['postgres-url']) : null;
      const directus = await startDirectus(
        database?.engine === 'postgres'
          ? { DB_CLIENT: 'pg', DB_CONNECTION_STRING: database.url }
          : { DB_CLIENT: 'sqlite3', DB_FILENAME: join(scratch, `directus-${round}.db`) },
      );
      try {
        lastPhases[`directus ${engine}`] = record(
          `directus ${engine}`,
          await runSchemaWorkload(directusSchemaApi(directus.baseUrl), hookUrl),
        );
      } finally {
        await directus.stop();
        await database?.drop();
      }
    }
    process.stdout.write(
      `round ${round}: ${Object.entries(results)
        .map(([name, list]) => `${name} ${list.at(-1)?.toFixed(1)} ops/s`)
        .join(', ')}\n`,
    );
  }
} finally {
  await receiver.close();
  rmSync(scratch, { recursive: true, force: true });
}
for (const [name, phases] of Object.entries(lastPhases)) {
  process.stdout.write(`\n${name}, last round:\n`);
  printTable(phaseRows(phases, name));
}
process.stdout.write('\n');
const rows = [];
for (const [name, list] of Object.entries(results)) {
  const row: Record<string, string | number> = {
    server: name,
    'ops/s per round': list.map((ops) => ops.toFixed(1)).join(' / '),
    'median ops/s': median(list),
  };
  for (const engine of directusEngines)
    row[`÷ directus ${engine}`] = median(list) / median(results[`directus ${engine}`] ?? []);
  rows.push(row);
}
printTable(rows);
