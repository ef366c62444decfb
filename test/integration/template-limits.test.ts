import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openDatabase } from '../../src/db/client.ts';
import { createTestDatabase, databaseConfig, type TestDatabase } from '../support/databases.ts';
import {
  attemptsOf,
  findCall,
  insertEvent,
  insertWebhook,
  queueCall,
} from '../support/delivery-fixtures.ts';
import { runFieldhouse } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

// The template: 2 KB, `{{#related_entities}}` nested 48 times (2^48 renders).
const BOMB = `${'{{#related_entities}}'.repeat(48)}{{id}}${'{{/related_entities}}'.repeat(48)}`;

/** Opens the test database (the embedded one admits one process: not while a server runs). */
async function withDatabase<T>(
  database: TestDatabase,
  use: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const handle = await openDatabase(databaseConfig(database));
  try {
    return await use(handle.db);
  } finally {
    await handle.close();
  }
}

test('a stored template that renders 2^48 times neither stops a start nor holds up other deliveries', async () => {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  // As a server that crashed while rendering it would leave the database: the call is due.
  const { bombCall, healthyCall } = await withDatabase(database, async (db) => {
    const bomb = await insertWebhook(db, { url: `${receiver.url}/bomb`, custom_payload: BOMB });
    const healthy = await insertWebhook(db, { url: `${receiver.url}/healthy` });
    const event = await insertEvent(db);
    await db
      .updateTable('events')
      .set({ related_entities: JSON.stringify([{ id: '1' }, { id: '2' }]) })
      .where('id', '=', event.id)
      .execute();
    return {
      bombCall: await queueCall(db, bomb, event.id),
      healthyCall: await queueCall(db, healthy, event.id),
    };
  });
  const env: Record<string, string> =
    database.engine === 'postgres'
      ? { DATABASE_URL: database.url }
      : { FIELDHOUSE_DATA_DIR: database.dataDir };
  const server = runFieldhouse(['serve'], { ...env, FIELDHOUSE_WEBHOOK_ALLOW: '127.0.0.0/8' });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null)
      server.child.kill('SIGKILL');
    await server.exited;
  });
  const url = await server.listening;
  // The other webhook's delivery, claimed with the bomb, arrives; the server answers.
  const [delivered] = await receiver.waitForRequests(1, 120_000);
  assert.equal(delivered?.path, '/healthy');
  assert.equal((await fetch(`${url}/healthz`)).status, 200);
  await server.waitFor(/webhook call failed for good/, 120_000);
  await server.stop();
  assert.equal(await server.exited, 0);

  await withDatabase(database, async (db) => {
    assert.equal((await findCall(db, healthyCall)).status, 'success');
    const bomb = await findCall(db, bombCall);
    assert.equal(bomb.status, 'failed', 'the call ends, it is not left to be claimed again');
    assert.equal(bomb.next_retry_at, null, 'and it is not retried');
    assert.equal(bomb.due_at, null);
    const [attempt, ...more] = await attemptsOf(db, bombCall);
    assert.equal(more.length, 0);
    assert.match(
      attempt?.error ?? '',
      /^could not build the request: the custom payload: rendering takes more than 1,000,000 steps .*; the call is not retried$/,
    );
  });
  assert.equal(receiver.requests.filter((r) => r.path === '/bomb').length, 0);
});
