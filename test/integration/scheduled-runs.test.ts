import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildClient, type Client } from '@datocms/cma-client-node';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/client.ts';
import {
  createTestDatabase,
  databaseConfig,
  TEST_ENGINE,
  type TestDatabase,
} from '../support/databases.ts';
import { buildField, buildModel, buildWebhook } from '../support/factories.ts';
import { type FieldhouseProcess, runFieldhouse } from '../support/process.ts';

const TOKEN = 'fieldhouse-scheduled-runs-admin-token';

function serve(database: TestDatabase, pollMs: number): FieldhouseProcess {
  return runFieldhouse(['serve'], {
    ...(database.engine === 'postgres'
      ? { DATABASE_URL: database.url }
      : { FIELDHOUSE_DATA_DIR: database.dataDir }),
    FIELDHOUSE_ADMIN_TOKEN: TOKEN,
    FIELDHOUSE_SCHEDULE_POLL_MS: String(pollMs),
  });
}

const clientAt = (url: string): Client =>
  buildClient({ apiToken: TOKEN, baseUrl: url.replace('[::1]', '127.0.0.1') });

/**
 * Draft records of a new draft-mode model, each with its publication scheduled `leadMs`
 * after the records exist (all at the same time).
 */
async function scheduledDrafts(client: Client, count: number, leadMs: number): Promise<string[]> {
  // A webhook wants the publish events, so the worker's pruning (which drops events no
  // webhook call names) keeps them for publishEvents to count.
  await buildWebhook(client, { events: [{ entity_type: 'item', event_types: ['publish'] }] });
  const model = await buildModel(client, { draft_mode_active: true });
  await buildField(client, { itemTypeId: model.id, api_key: 'title', label: 'Title' });
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const record = await client.items.create({
      item_type: { type: 'item_type', id: model.id },
      title: `Scheduled ${n}`,
    });
    ids.push(record.id);
  }
  const at = new Date(Date.now() + leadMs).toISOString();
  for (const id of ids)
    await client.scheduledPublication.create(id, { publication_scheduled_at: at });
  return ids;
}

async function waitForPublished(client: Client, ids: string[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const records = await client.items.list({
      filter: { ids: ids.join(',') },
      page: { limit: 500 },
    });
    if (records.filter((record) => record.meta.status === 'published').length === ids.length)
      return;
    if (Date.now() > deadline) throw new Error('the scheduled records were not all published');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Publish events recorded per record, read from the database once the processes stopped. */
async function publishEvents(database: TestDatabase, ids: string[]): Promise<number[]> {
  const handle = await openDatabase(databaseConfig(database));
  try {
    const { rows } = await sql<{ entity_id: string; count: number }>`
      SELECT entity_id, count(*)::int AS count FROM events
      WHERE entity_type = 'item' AND event_type = 'publish' AND entity_id = ANY(${ids})
      GROUP BY entity_id
    `.execute(handle.db);
    return ids.map((id) => rows.find((row) => row.entity_id === id)?.count ?? 0);
  } finally {
    await handle.close();
  }
}

test('a schedule of a process killed with SIGKILL runs once, in the process started next', async () => {
  const database = await createTestDatabase();
  try {
    // The first process polls once at start and then not for an hour: it dies holding
    // the only copy of the schedule in memory, if it held any.
    const first = serve(database, 3_600_000);
    const ids = await scheduledDrafts(clientAt(await first.listening), 1, 2000);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = serve(database, 100);
    try {
      await waitForPublished(clientAt(await second.listening), ids);
    } finally {
      await second.stop();
    }
    assert.deepEqual(await publishEvents(database, ids), [1]);
  } finally {
    await database.drop();
  }
});

// One process owns an embedded database: several processes exist only on PostgreSQL.
if (TEST_ENGINE === 'postgres') {
  test('processes sharing a PostgreSQL run each due schedule once', async () => {
    const database = await createTestDatabase();
    const processes = [serve(database, 50), serve(database, 50), serve(database, 50)];
    try {
      let ids: string[] = [];
      try {
        const urls = await Promise.all(processes.map((process) => process.listening));
        const client = clientAt(urls[0] as string);
        ids = await scheduledDrafts(client, 20, 5000);
        await waitForPublished(client, ids);
      } finally {
        await Promise.all(processes.map((process) => process.stop()));
      }
      assert.deepEqual(
        await publishEvents(database, ids),
        ids.map(() => 1),
      );
    } finally {
      await database.drop();
    }
  });
}
