import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { ENVIRONMENT_LOCK_KEY, lockEnvironment } from '../../src/db/environment-scope.ts';
import { apiError } from '../support/api-errors.ts';
import { TEST_ENGINE } from '../support/databases.ts';
import { buildModel } from '../support/factories.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// A change enters its environment in one statement (enter_environment, project migration 0008):
// the lock, then the environment's row and the site read after the lock is granted.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.close();
});

/** Whether a session is waiting for environment 1's lock (PostgreSQL: other connections). */
async function someoneWaitsForLock(): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`
    SELECT count(*)::int AS waiting FROM pg_locks
    WHERE locktype = 'advisory' AND NOT granted
      AND classid = ${sql.lit(ENVIRONMENT_LOCK_KEY)} AND objid = 1
  `.execute(server.db);
  return (rows[0]?.waiting ?? 0) > 0;
}

test('a change waiting for the lock reads what its holder committed: maintenance mode refuses it', async () => {
  const admin = server.client();
  const model = await buildModel(admin);
  let write: Promise<unknown> | undefined;
  await server.db.transaction().execute(async (trx) => {
    await lockEnvironment(trx, 1);
    await trx.updateTable('site').set({ maintenance_mode: true }).execute();
    write = admin.itemTypes.update(model.id, { hint: 'during maintenance' });
    // On PostgreSQL the write's own connection queues behind the lock; the embedded
    // engine is one connection, so the write waits for this transaction to end anyway.
    if (TEST_ENGINE === 'postgres') {
      for (let tries = 0; !(await someoneWaitsForLock()); tries++) {
        assert.ok(tries < 2000, 'the write never queued behind the lock');
        await sleep(5);
      }
    }
  });
  await assert.rejects(write ?? Promise.resolve(), (error) => {
    assert.ok(apiError(error).findError('MAINTENANCE_MODE'), String(error));
    return true;
  });
  await server.db.updateTable('site').set({ maintenance_mode: false }).execute();
  assert.equal((await admin.itemTypes.find(model.id)).hint, null, 'nothing was written');
});

test('a change to a ready environment touches its row and proceeds', async () => {
  const admin = server.client();
  const model = await buildModel(admin);
  const longAgo = new Date('2000-01-01T00:00:00Z');
  await server.db
    .updateTable('environments')
    .set({ last_data_change_at: longAgo })
    .where('number', '=', 1)
    .execute();
  const updated = await admin.itemTypes.update(model.id, { hint: 'written' });
  assert.equal(updated.hint, 'written');
  const touched = await server.db
    .selectFrom('environments')
    .select('last_data_change_at')
    .where('number', '=', 1)
    .executeTakeFirstOrThrow();
  assert.ok((touched.last_data_change_at?.getTime() ?? 0) > longAgo.getTime());
});
