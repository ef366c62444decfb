import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { environmentRef, type Scope, scopeFor } from '../../src/db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../src/db/environment-transaction.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { apiError } from '../support/api-errors.ts';
import { TEST_ENGINE } from '../support/databases.ts';
import { raceTheLock } from '../support/environment-lock.ts';
import { buildModel } from '../support/factories.ts';
import { requestRoundTripsOf } from '../support/round-trips.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// A change enters its environment in one statement (enter_environment, project migration 0008):
// the lock, then the environment's row and the site read after the lock is granted. A change
// whose request read the environment with its token assumes it (enter_*_assuming, project
// migration 0018): that entry checks the row itself and goes with the change's first
// statement.

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

/** The primary environment's scope, as a request that read `schemaVersion` has it. */
async function primaryScope(schemaVersion?: string): Promise<Scope> {
  const row = await server.db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name', 'is_primary', 'schema_version'])
    .where('is_primary', '=', true)
    .executeTakeFirstOrThrow();
  return scopeFor(server.db, environmentRef(row), {
    schema: schemaVersion ?? row.schema_version,
    records: '0',
  });
}

const rejectsWith = (code: string) => (error: unknown) => {
  assert.ok(error instanceof DomainError, String(error));
  assert.equal(error.code, code);
  return true;
};

test("a change assuming its request's environment enters with its first statement, in one round trip", async () => {
  const model = await buildModel(server.client());
  const scope = await primaryScope();
  const sent = await requestRoundTripsOf(() =>
    inEnvironmentTransaction(scope, async (tx) => {
      await tx.db.selectFrom('item_types').select('id').where('id', '=', model.id).execute();
    }),
  );
  assert.equal(sent.length, 2, sent.join('\n'));
  assert.match(sent[0] ?? '', /^begin; SELECT enter_environment_assuming\(.*\); select "id" from/s);
  // On PostgreSQL the schema version the change left is read with its COMMIT
  // (src/db/schema-version-left.ts).
  const versionLeft =
    TEST_ENGINE === 'postgres'
      ? 'SELECT schema_version::text AS version FROM environments WHERE number = $1 ; '
      : '';
  assert.equal(sent[1], `${versionLeft}commit`);
});

test('a change assuming a schema version its environment has left runs again from the plain entry', async () => {
  const model = await buildModel(server.client());
  const stale = await primaryScope('1');
  let runs = 0;
  const sent = await requestRoundTripsOf(() =>
    inEnvironmentTransaction(stale, async (tx) => {
      runs++;
      await tx.db
        .updateTable('item_types')
        .set({ hint: 'written once' })
        .where('id', '=', model.id)
        .execute();
    }),
  );
  assert.equal(runs, 2);
  assert.match(sent[0] ?? '', /^begin; SELECT enter_environment_assuming\(/);
  assert.equal(sent[1], 'rollback', 'the first run stopped at its entry');
  assert.match(sent[2] ?? '', /^begin; SELECT \* FROM enter_environment\(/);
  assert.equal((await server.client().itemTypes.find(model.id)).hint, 'written once');
});

test('the assuming entry refuses what the plain one refuses: a read-only or missing environment', async () => {
  const model = await buildModel(server.client());
  const write = (scope: Scope) =>
    inEnvironmentTransaction(scope, async (tx) => {
      await tx.db
        .updateTable('item_types')
        .set({ hint: 'refused' })
        .where('id', '=', model.id)
        .execute();
    });
  const scope = await primaryScope();
  await server.db
    .updateTable('environments')
    .set({ read_only_mode: true })
    .where('number', '=', scope.environment.number)
    .execute();
  try {
    await assert.rejects(write(scope), rejectsWith('ENVIRONMENT_IN_READ_ONLY_MODE'));
  } finally {
    await server.db
      .updateTable('environments')
      .set({ read_only_mode: false })
      .where('number', '=', scope.environment.number)
      .execute();
  }
  const missing = scopeFor(server.db, { ...scope.environment, number: 999_999 }, scope.versions);
  await assert.rejects(write(missing), rejectsWith('INVALID_ENVIRONMENT'));
  assert.equal((await server.client().itemTypes.find(model.id)).hint, null, 'nothing was written');
});
