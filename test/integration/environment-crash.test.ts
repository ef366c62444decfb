import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { type Db, openDatabase } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { bootstrapProject } from '../../src/domain/bootstrap.ts';
import { removeInterruptedForks } from '../../src/domain/environments/recovery.ts';
import { createTestDatabase, databaseConfig, type TestDatabase } from '../support/databases.ts';
import { itemPermission, tokenWithRole } from '../support/limited-token.ts';
import { runFieldhouse } from '../support/process.ts';
import { seedRecords, seedSchema } from '../support/seed-schema.ts';

const TOKEN = 'fieldhouse-env-crash-admin-token';

function serve(database: TestDatabase) {
  return runFieldhouse(['serve'], {
    ...(database.engine === 'postgres'
      ? { DATABASE_URL: database.url }
      : { FIELDHOUSE_DATA_DIR: database.dataDir }),
    FIELDHOUSE_ADMIN_TOKEN: TOKEN,
  });
}

/**
 * A new test database, migrated and bootstrapped with TOKEN, holding 300 models of 30
 * fields (and, if asked, `records` records over 5 of them): enough for a fork to take a
 * while to copy. Dropped again if seeding fails.
 */
async function seededDatabase(
  seed: { records?: number; also?: (db: Db) => Promise<void> } = {},
): Promise<TestDatabase> {
  const database = await createTestDatabase();
  try {
    const seeding = await openDatabase(databaseConfig(database));
    try {
      await migrateToLatest(seeding.db);
      await bootstrapProject(seeding.db, { adminToken: TOKEN });
      await seedSchema(seeding.db, 300, 30);
      if (seed.records) await seedRecords(seeding.db, seed.records, 5, 30);
      await seed.also?.(seeding.db);
    } finally {
      await seeding.close();
    }
  } catch (error) {
    await database.drop();
    throw error;
  }
  return database;
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json',
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Starts a fork of main named "crashed", SIGKILLs the server while it answers at once
 * (`immediate_return`) and copies on, and starts the next server on the same database.
 */
async function restartAfterKilledFork(database: TestDatabase): Promise<ReturnType<typeof serve>> {
  const first = serve(database);
  const url = await first.listening;
  const started = await call(url, 'POST', '/environments/main/fork?immediate_return=true', {
    data: { type: 'environment', id: 'crashed' },
  });
  assert.equal(started.status, 200);
  first.child.kill('SIGKILL');
  await first.exited;
  return serve(database);
}

test('a fork killed with SIGKILL leaves no half environment: removed at restart, and logged', async () => {
  const database = await seededDatabase();
  try {
    const second = await restartAfterKilledFork(database);
    try {
      const restartedUrl = await second.listening;
      const list = await call(restartedUrl, 'GET', '/environments');
      const environments = list.body.data as { id: string; meta: { status: string } }[];
      const crashed = environments.find((environment) => environment.id === 'crashed');
      // The copy may have committed before the kill; it is never left half done.
      if (crashed) assert.equal(crashed.meta.status, 'ready');
      else await second.waitFor(/removed environment \\"crashed\\": its fork was interrupted/);
      assert.equal(environments.length, crashed ? 2 : 1);
    } finally {
      await second.stop();
    }
    const check = await openDatabase(databaseConfig(database));
    try {
      const { rows } = await sql<{ count: number }>`
        SELECT count(*)::int AS count FROM information_schema.schemata
        WHERE schema_name LIKE 'env\\_%'
      `.execute(check.db);
      const environments = await check.db.selectFrom('environments').select('id').execute();
      assert.equal(rows[0]?.count, environments.length, 'one schema per environment, no orphan');
    } finally {
      await check.close();
    }
  } finally {
    await database.drop();
  }
});

test('a fork killed with SIGKILL leaves no role entries: a new environment of the same id starts with its source’s', async () => {
  let roleId = '';
  const database = await seededDatabase({
    also: async (db) => {
      const limited = await tokenWithRole(db, {
        positive_item_type_permissions: [itemPermission('all')],
      });
      roleId = limited.roleId;
    },
  });
  /** The item-type permission entries of the role, as [environment, action]. */
  const entries = async (url: string) => {
    const role = await call(url, 'GET', `/roles/${roleId}`);
    const attributes = (role.body.data as { attributes: Record<string, unknown> }).attributes;
    return (attributes.positive_item_type_permissions as Record<string, unknown>[]).map((entry) => [
      entry.environment,
      entry.action,
    ]);
  };
  try {
    const second = await restartAfterKilledFork(database);
    try {
      const restartedUrl = await second.listening;
      const list = await call(restartedUrl, 'GET', '/environments');
      const ids = (list.body.data as { id: string }[]).map((environment) => environment.id);
      assert.deepEqual(ids, ['main'], 'the kill landed while the fork copied');
      await second.waitFor(/removed environment \\"crashed\\": its fork was interrupted/);
      assert.deepEqual(await entries(restartedUrl), [['main', 'all']], 'no entry of the dead fork');

      const narrowed = await call(restartedUrl, 'PUT', `/roles/${roleId}`, {
        data: {
          type: 'role',
          id: roleId,
          attributes: {
            positive_item_type_permissions: [itemPermission('read')],
            negative_item_type_permissions: [],
          },
        },
      });
      assert.equal(narrowed.status, 200, JSON.stringify(narrowed.body));
      const forked = await call(restartedUrl, 'POST', '/environments/main/fork', {
        data: { type: 'environment', id: 'crashed' },
      });
      assert.equal(forked.status, 200, JSON.stringify(forked.body));
      assert.deepEqual(await entries(restartedUrl), [
        ['main', 'read'],
        ['crashed', 'read'],
      ]);
    } finally {
      await second.stop();
    }
  } finally {
    await database.drop();
  }
});

test('a process starting while a fork copies leaves the fork alone', async () => {
  const database = await seededDatabase({ records: 3_000 });
  try {
    const first = serve(database);
    try {
      const url = await first.listening;
      const started = await call(url, 'POST', '/environments/main/fork?immediate_return=true', {
        data: { type: 'environment', id: 'copying' },
      });
      assert.equal(started.status, 200);
      const status = async () =>
        (
          (await call(url, 'GET', '/environments/copying')).body.data as {
            meta: { status: string };
          }
        ).meta.status;
      if (database.engine === 'postgres') {
        // Another process's start-up recovery, run over and over until the copy is done:
        // the fork holds its lock from the transaction that registered it, so it is never
        // taken for an interrupted one.
        const other = await openDatabase(databaseConfig(database));
        try {
          const logged: string[] = [];
          let runsWhileCopying = 0;
          while ((await status()) === 'creating') {
            assert.deepEqual(await removeInterruptedForks(other.db, (m) => logged.push(m)), []);
            runsWhileCopying += 1;
          }
          assert.ok(runsWhileCopying > 0, 'recovery ran while the fork was copying');
          assert.deepEqual(logged, []);
        } finally {
          await other.close();
        }
      } else {
        // Embedded: a second process cannot open the data directory at all.
        const second = serve(database);
        assert.notEqual(await second.exited, 0);
        await second.waitFor(/in use by process/);
        while ((await status()) === 'creating') {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      assert.equal(await status(), 'ready');
    } finally {
      await first.stop();
    }
  } finally {
    await database.drop();
  }
});
