import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig, loadDotEnv } from '../../src/config.ts';

test('defaults: embedded database under ./data on 127.0.0.1:3000', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 3000);
  assert.equal(config.databaseUrl, null);
  assert.equal(config.dataDir, join(process.cwd(), 'data'));
  assert.equal(config.adminToken, null);
  assert.equal(config.asyncJobs, false);
});

test('every variable is read and checked', () => {
  const config = loadConfig({
    HOST: '0.0.0.0',
    PORT: '8080',
    DATABASE_URL: 'postgresql://u@db:5432/fh',
    FIELDHOUSE_DATA_DIR: '/var/lib/fieldhouse',
    FIELDHOUSE_ADMIN_TOKEN: 'a-very-secret-token',
    FIELDHOUSE_ASYNC_JOBS: 'true',
    FIELDHOUSE_DB_POOL_SIZE: '20',
    LOG_LEVEL: 'warn',
  });
  assert.deepEqual(config, {
    host: '0.0.0.0',
    port: 8080,
    databaseUrl: 'postgresql://u@db:5432/fh',
    dataDir: '/var/lib/fieldhouse',
    adminToken: 'a-very-secret-token',
    logLevel: 'warn',
    asyncJobs: true,
    dbPoolSize: 20,
  });
  for (const [name, value] of [
    ['PORT', '70000'],
    ['FIELDHOUSE_ASYNC_JOBS', 'yes'],
    ['FIELDHOUSE_DB_POOL_SIZE', '0'],
    ['DATABASE_URL', 'not a url'],
  ]) {
    assert.throws(
      () => loadConfig({ [name as string]: value }),
      (error) => error instanceof ConfigError && error.variable === name,
    );
  }
});

test('.env is read without overriding variables already set', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldhouse-env-'));
  const file = join(dir, '.env');
  writeFileSync(file, 'FIELDHOUSE_TEST_FROM_FILE=file\nFIELDHOUSE_TEST_ALREADY_SET=file\n');
  process.env.FIELDHOUSE_TEST_ALREADY_SET = 'process';
  loadDotEnv(file);
  assert.equal(process.env.FIELDHOUSE_TEST_FROM_FILE, 'file');
  assert.equal(process.env.FIELDHOUSE_TEST_ALREADY_SET, 'process');
});
