// Benchmark: fields.update through the official client on loopback, against a real
// `fieldhouse serve` process, in an empty project or in a big one seeded by SQL.
// Usage: npx tsx bench/fields.ts [--db embedded|postgres] [--updates 2000]
//                                [--models 1000 --fields 30]
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/client.ts';
import { loadScope } from '../src/db/environment-scope.ts';
import { generateId } from '../src/domain/ids.ts';
import { databaseConfig, type TestDatabase } from '../test/support/databases.ts';
import { runFieldhouse } from '../test/support/process.ts';
import {
  benchDatabase,
  cpuMs,
  percentile,
  printTable,
  quietWindowPercentile,
  rssMb,
  serverEnv,
} from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded' },
    updates: { type: 'string', default: '2000' },
    models: { type: 'string', default: '0' },
    fields: { type: 'string', default: '30' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const TOKEN = 'bench-admin-token-000000001';
const updates = Number(values.updates);
const QUIET_WINDOW = 200;
const seedModels = Number(values.models);
const fieldsPerModel = Number(values.fields);

function start(env: Record<string, string>) {
  // LOG_LEVEL=info: the listening line is how the start is seen; request logs go to a pipe.
  // Started as `fieldhouse serve` runs installed: the executable, whose shebang holds
  // node's flags (the RSS column depends on them).
  return runFieldhouse(['serve'], { ...env, FIELDHOUSE_ADMIN_TOKEN: TOKEN }, ['bin/fieldhouse.js']);
}

/**
 * Fills the project with `models` models of `fields` string fields each, by direct SQL
 * (the embedded database has one owner, so the server is stopped meanwhile).
 */
async function seed(database: TestDatabase, models: number, fields: number) {
  const handle = await openDatabase(databaseConfig(database));
  const appearance = JSON.stringify({
    editor: 'single_line',
    parameters: { heading: false, placeholder: null },
    addons: [],
  });
  try {
    const chunk = 100;
    for (let first = 0; first < models; first += chunk) {
      const itemTypes = Array.from({ length: Math.min(chunk, models - first) }, (_, i) => ({
        id: generateId(),
        name: `Seeded ${first + i}`,
        api_key: `seeded_m${first + i}`,
        singleton: false,
        sortable: false,
        tree: false,
        modular_block: false,
        draft_mode_active: false,
        draft_saving_active: false,
        all_locales_required: false,
        ordering_direction: null,
        ordering_meta: null,
        collection_appearance: 'compact' as const,
        hint: null,
        inverse_relationships_enabled: false,
        has_singleton_item: false,
        ordering_field_id: null,
        presentation_title_field_id: null,
        presentation_image_field_id: null,
        title_field_id: null,
        image_preview_field_id: null,
        excerpt_field_id: null,
        workflow_id: null,
        singleton_item_id: null,
      }));
      await (await loadScope(handle.db)).db.insertInto('item_types').values(itemTypes).execute();
      const rows = itemTypes.flatMap((itemType) =>
        Array.from({ length: fields }, (_, position) => ({
          id: generateId(),
          item_type_id: itemType.id,
          fieldset_id: null,
          label: `Field ${position}`,
          api_key: `field${position}`,
          field_type: 'string',
          localized: false,
          validators: '{}',
          appearance,
          position: position + 1,
          hint: null,
          default_value: 'null',
          deep_filtering_enabled: false,
          content_link_enabled: true,
        })),
      );
      await (await loadScope(handle.db)).db.insertInto('fields').values(rows).execute();
    }
    await sql`ANALYZE`.execute(handle.db);
  } finally {
    await handle.close();
  }
}

const database = await benchDatabase(
  values.db === 'postgres' ? 'postgres' : 'embedded',
  values['postgres-url'],
);
const env = serverEnv(database);
// The first start migrates and creates the project.
const first = start(env);
await first.listening;
await first.stop();

const seedStarted = performance.now();
if (seedModels > 0) await seed(database, seedModels, fieldsPerModel);
const seedMs = performance.now() - seedStarted;

const server = start(env);
const client = buildClient({ apiToken: TOKEN, baseUrl: await server.listening, autoRetry: false });
const model = await client.itemTypes.create({ name: 'Bench', api_key: 'bench' });
const fields: { id: string; api_key: string }[] = [];
for (let i = 0; i < fieldsPerModel; i++) {
  fields.push(
    await client.fields.create(model.id, {
      label: `Bench field ${i}`,
      api_key: `bench${i}`,
      field_type: 'string',
    }),
  );
}
const target = (i: number) => {
  const field = fields[i % fields.length];
  if (!field) throw new Error('no field to update');
  // Both identifier forms the API accepts.
  return i % 2 ? field.id : `bench::${field.api_key}`;
};
for (let i = 0; i < 50; i++) await client.fields.update(target(i), { hint: `warmup ${i}` });
const serverPid = server.child.pid ?? 0;
const cpuBefore = cpuMs(serverPid);
const samples: number[] = [];
for (let i = 0; i < updates; i++) {
  const t0 = performance.now();
  await client.fields.update(target(i), { hint: `hint ${i}` });
  samples.push(performance.now() - t0);
}
const serverCpuMs = (cpuMs(serverPid) - cpuBefore) / updates;
// The machine may be shared: the quietest window shows what the code reaches unhindered.
const quietP50 = quietWindowPercentile(samples, QUIET_WINDOW, 50);
samples.sort((a, b) => a - b);
const rss = rssMb(serverPid);
await server.stop();
await database.drop();

printTable([
  {
    db: values.db ?? 'embedded',
    project: seedModels > 0 ? `${seedModels + 1} models x ${fieldsPerModel}` : 'empty',
    updates: String(updates),
    'update p50 ms': percentile(samples, 50),
    'update p99 ms': percentile(samples, 99),
    'quiet p50 ms': quietP50,
    'server CPU ms/update': serverCpuMs,
    'updates/s': 1000 / (samples.reduce((a, b) => a + b, 0) / samples.length),
    'seed s': seedMs / 1000,
    'steady RSS MB': rss,
  },
]);
