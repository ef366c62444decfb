import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { apiError } from '../support/api-errors.ts';
import { raceTheLock } from '../support/environment-lock.ts';
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

test('a change waiting for the lock reads what its holder committed: maintenance mode refuses it', async () => {
  const admin = server.client();
  const model = await buildModel(admin);
  const write = raceTheLock(
    server.db,
    () => admin.itemTypes.update(model.id, { hint: 'during maintenance' }),
    async (tx) => {
      await tx.project.updateTable('site').set({ maintenance_mode: true }).execute();
    },
  );
  await assert.rejects(write, (error) => {
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
