// Benchmark: forking and destroying a big environment, and the latency of reads and
// writes in another environment while a fork runs, against a real `fieldhouse serve`.
// Usage: npx tsx bench/environments.ts [--db embedded|postgres] [--models 1000 --fields 30]
//          [--records 10000 --record-models 5]
import { parseArgs } from 'node:util';
import { buildClient } from '@datocms/cma-client-node';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { bootstrapProject } from '../src/domain/bootstrap.ts';
import { databaseConfig } from '../test/support/databases.ts';
import { runFieldhouse } from '../test/support/process.ts';
import { seedRecords, seedSchema } from '../test/support/seed-schema.ts';
import { benchDatabase, percentile, printTable, serverEnv } from './support.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'embedded' },
    models: { type: 'string', default: '1000' },
    fields: { type: 'string', default: '30' },
    records: { type: 'string', default: '10000' },
    'record-models': { type: 'string', default: '5' },
    'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const TOKEN = 'bench-admin-token-000000001';

let probes = 0;

/** Requests in `environment` one after another until `done`, with their latencies. */
async function probe(
  url: string,
  environment: string,
  done: () => boolean,
): Promise<{ reads: number[]; writes: number[] }> {
  const client = buildClient({ apiToken: TOKEN, baseUrl: url, environment, autoRetry: false });
  const reads: number[] = [];
  const writes: number[] = [];
  while (!done()) {
    const i = probes++;
    let started = performance.now();
    await client.site.find();
    reads.push(performance.now() - started);
    started = performance.now();
    await client.workflows.create({
      name: `Probe ${i}`,
      api_key: `probe_n${i}`,
      stages: [{ id: 'draft', name: 'Draft', initial: true }],
    } as never);
    writes.push(performance.now() - started);
  }
  return { reads, writes };
}

/** The distinct `fork_completion_percentage` figures of `id` seen until `done`. */
async function watchProgress(
  client: ReturnType<typeof buildClient>,
  id: string,
  done: () => boolean,
): Promise<number[]> {
  const seen: number[] = [];
  while (!done()) {
    const found = await client.environments.find(id).catch(() => null);
    const percentage = found?.meta.fork_completion_percentage;
    if (typeof percentage === 'number' && seen.at(-1) !== percentage) seen.push(percentage);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return seen;
}

const fresh = await benchDatabase(
  values.db === 'postgres' ? 'postgres' : 'embedded',
  values['postgres-url'],
);
try {
  const models = Number(values.models);
  const fields = Number(values.fields);
  const records = Number(values.records);
  const seeding = await openDatabase(databaseConfig(fresh));
  await migrateToLatest(seeding.db);
  await bootstrapProject(seeding.db, { adminToken: TOKEN });
  await seedSchema(seeding.db, models, fields);
  await seedRecords(seeding.db, records, Number(values['record-models']), fields);
  await seeding.close();

  const server = runFieldhouse(['serve'], { ...serverEnv(fresh), FIELDHOUSE_ADMIN_TOKEN: TOKEN });
  try {
    const url = await server.listening;
    const client = buildClient({ apiToken: TOKEN, baseUrl: url, autoRetry: false });
    // A small environment to probe: an empty fork of nothing would not exist, so fork
    // the big one once (also warms the caches) and empty it.
    let started = performance.now();
    await client.environments.fork('main', { id: 'warm' });
    const warmFork = performance.now() - started;
    started = performance.now();
    await client.environments.destroy('warm');
    const destroyMs = performance.now() - started;
    await client.environments.fork('main', { id: 'other' });

    const idle = await (async () => {
      let n = 0;
      return probe(url, 'other', () => n++ >= 30);
    })();
    let forking = true;
    const during = probe(url, 'other', () => !forking);
    const progress = watchProgress(client, 'measured', () => !forking);
    started = performance.now();
    const forked = client.environments.fork('main', { id: 'measured' });
    // A write to the source once the fork is registered (the embedded engine holds it
    // until the copy ends; PostgreSQL does not).
    const sourceWrite = (async () => {
      while (!(await client.environments.find('measured').catch(() => null))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const writeStarted = performance.now();
      await client.workflows.create({
        name: 'Source write',
        api_key: 'source_write',
        stages: [{ id: 'draft', name: 'Draft', initial: true }],
      } as never);
      return performance.now() - writeStarted;
    })();
    await forked;
    const forkMs = performance.now() - started;
    forking = false;
    const busy = await during;
    const sourceWriteMs = await sourceWrite;
    const seen = await progress;
    const p50 = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      );
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `environments bench (${values.db}, ${models} models × ${fields} fields, ${records} records)`,
    );
    printTable([
      { measure: 'fork (first, cold)', value: ms(warmFork) },
      { measure: 'fork (measured)', value: ms(forkMs) },
      { measure: 'destroy', value: ms(destroyMs) },
      { measure: 'source write once the fork is registered', value: ms(sourceWriteMs) },
      { measure: 'fork_completion_percentage seen', value: seen.join(' ') },
      { measure: 'other env read p50, idle', value: ms(p50(idle.reads)) },
      { measure: 'other env read max, idle', value: ms(Math.max(...idle.reads)) },
      {
        measure: `other env read p50, during fork (${busy.reads.length})`,
        value: ms(p50(busy.reads)),
      },
      { measure: 'other env read max, during fork', value: ms(Math.max(...busy.reads)) },
      { measure: 'other env write p50, idle', value: ms(p50(idle.writes)) },
      { measure: 'other env write max, idle', value: ms(Math.max(...idle.writes)) },
      { measure: 'other env write p50, during fork', value: ms(p50(busy.writes)) },
      { measure: 'other env write max, during fork', value: ms(Math.max(...busy.writes)) },
    ]);
  } finally {
    await server.stop();
  }
} finally {
  await fresh.drop();
}
