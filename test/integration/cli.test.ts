import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildClient } from '@datocms/cma-client-node';
import { createTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/databases.ts';
import { runFieldhouse } from '../support/process.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function databaseEnv(): Promise<Record<string, string>> {
  const database: TestDatabase = await createTestDatabase();
  cleanups.push(() => database.drop());
  return database.engine === 'postgres'
    ? { DATABASE_URL: database.url }
    : { FIELDHOUSE_DATA_DIR: database.dataDir };
}

describe('the fieldhouse command line', () => {
  test('first start bootstraps the project and prints its admin token once', async () => {
    const env = await databaseEnv();
    const first = runFieldhouse(['serve'], env);
    cleanups.push(() => first.stop());
    const url = await first.listening;
    const token = (await first.waitFor(/API token:\s+(\S+)/))[1] ?? '';
    const client = buildClient({ apiToken: token, baseUrl: url, autoRetry: false });
    const site = await client.site.find();
    assert.deepEqual(site.locales, ['en']);
    await first.stop();

    const second = runFieldhouse(['serve'], env);
    cleanups.push(() => second.stop());
    await second.listening;
    assert.doesNotMatch(second.output(), /API token/, 'the token is printed only once');
    await second.stop();
  });

  test('FIELDHOUSE_ADMIN_TOKEN sets the admin token; token create makes more', async () => {
    const env = { ...(await databaseEnv()), FIELDHOUSE_ADMIN_TOKEN: 'ci-known-admin-token-0001' };
    const created = runFieldhouse(['token', 'create', '--name', 'CI'], env);
    assert.equal(await created.exited, 0, created.output());
    const extraToken = created.output().trim().split('\n').pop() ?? '';
    assert.match(extraToken, /^[A-Za-z0-9_-]{40}$/);

    const server = runFieldhouse(['serve'], env);
    cleanups.push(() => server.stop());
    const url = await server.listening;
    for (const apiToken of ['ci-known-admin-token-0001', extraToken]) {
      const client = buildClient({ apiToken, baseUrl: url, autoRetry: false });
      assert.deepEqual(await client.itemTypes.list(), []);
    }
  });

  test('invalid configuration stops the start and names the variable', async () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['DATABASE_URL', 'mysql://localhost/x'],
      ['FIELDHOUSE_ADMIN_TOKEN', 'short'],
      ['LOG_LEVEL', 'loud'],
    ] as const) {
      const run = runFieldhouse(['serve'], { [name]: value });
      assert.equal(await run.exited, 78);
      assert.match(run.output(), new RegExp(`Invalid configuration: ${name}`));
    }
  });

  test('migrate applies migrations and reports an up-to-date database', async () => {
    const env = await databaseEnv();
    const run = runFieldhouse(['migrate'], env);
    assert.equal(await run.exited, 0, run.output());
    assert.match(run.output(), /up to date/);
  });

  if (TEST_ENGINE === 'embedded') {
    test('embedded: a fresh data dir is created, and a second process is locked out', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fieldhouse-cli-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const owner = runFieldhouse(['serve'], { FIELDHOUSE_DATA_DIR: dataDir });
      cleanups.push(() => owner.stop());
      await owner.listening;
      const intruder = runFieldhouse(['serve'], { FIELDHOUSE_DATA_DIR: dataDir });
      assert.equal(await intruder.exited, 78);
      assert.match(intruder.output(), /in use by process \d+/);
      await owner.stop();
      const after = runFieldhouse(['serve'], { FIELDHOUSE_DATA_DIR: dataDir });
      cleanups.push(() => after.stop());
      await after.listening; // the lock was released on a clean stop
      after.child.kill('SIGKILL');
      await after.exited;
      const afterCrash = runFieldhouse(['serve'], { FIELDHOUSE_DATA_DIR: dataDir });
      cleanups.push(() => afterCrash.stop());
      await afterCrash.listening; // a dead owner's lock is taken over
    });
  }
});
