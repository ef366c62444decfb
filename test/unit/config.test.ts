import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, loadDotEnv } from '../../src/config.ts';

test('defaults: embedded database under ./data on 127.0.0.1:3000', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 3000);
  assert.equal(config.databaseUrl, null);
  assert.equal(config.dataDir, join(process.cwd(), 'data'));
  // Beside the installation, not the working directory: one cache however it is started.
  assert.equal(config.cacheDir, join(fileURLToPath(new URL('../..', import.meta.url)), '.cache'));
  assert.equal(config.adminToken, null);
  assert.equal(config.asyncJobs, false);
  assert.deepEqual(config.webhookAllow, []);
  assert.deepEqual(config.webhookRetrySchedule, [120, 360, 1800, 3600, 18_000, 86_400, 172_800]);
  assert.equal(config.workerConcurrency, 16);
  assert.equal(config.rateLimit, null);
  assert.equal(loadConfig({ FIELDHOUSE_RATE_LIMIT: 'off' }).rateLimit, null);
  assert.equal(config.cdaRateLimit, null);
  assert.equal(loadConfig({ FIELDHOUSE_CDA_RATE_LIMIT: 'off' }).cdaRateLimit, null);
  assert.equal(config.versionRetentionDays, 30);
  assert.equal(config.webhookLogRetentionDays, 30);
  assert.equal(config.pruneIntervalMs, 60_000);
});

test('every variable is read and checked', () => {
  const config = loadConfig({
    HOST: '0.0.0.0',
    PORT: '8080',
    DATABASE_URL: 'postgresql://u@db:5432/fh',
    FIELDHOUSE_DATA_DIR: '/var/lib/fieldhouse',
    FIELDHOUSE_CACHE_DIR: '/var/cache/fieldhouse',
    FIELDHOUSE_ADMIN_TOKEN: 'a-very-secret-token',
    FIELDHOUSE_ASYNC_JOBS: 'true',
    FIELDHOUSE_DB_POOL_SIZE: '20',
    FIELDHOUSE_WEBHOOK_ALLOW: ' 127.0.0.0/8, ::1 ,hooks.internal',
    FIELDHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,2.5,60',
    FIELDHOUSE_WORKER_CONCURRENCY: '4',
    FIELDHOUSE_SCHEDULE_POLL_MS: '250',
    FIELDHOUSE_RATE_LIMIT: '60/3',
    FIELDHOUSE_CDA_RATE_LIMIT: '40/s, 1000/min,50000/h',
    FIELDHOUSE_VERSION_RETENTION_DAYS: '90',
    FIELDHOUSE_WEBHOOK_LOG_RETENTION_DAYS: '7',
    FIELDHOUSE_PRUNE_INTERVAL_MS: '5000',
    FIELDHOUSE_CONSOLE_PATH: '/admin/',
    LOG_LEVEL: 'warn',
  });
  assert.deepEqual(config, {
    host: '0.0.0.0',
    port: 8080,
    databaseUrl: 'postgresql://u@db:5432/fh',
    dataDir: '/var/lib/fieldhouse',
    cacheDir: '/var/cache/fieldhouse',
    adminToken: 'a-very-secret-token',
    logLevel: 'warn',
    asyncJobs: true,
    dbPoolSize: 20,
    webhookAllow: ['127.0.0.0/8', '::1', 'hooks.internal'],
    webhookRetrySchedule: [1, 2.5, 60],
    workerConcurrency: 4,
    schedulePollMs: 250,
    rateLimit: { limit: 60, windowSeconds: 3 },
    cdaRateLimit: [
      { limit: 40, windowSeconds: 1 },
      { limit: 1000, windowSeconds: 60 },
      { limit: 50_000, windowSeconds: 3600 },
    ],
    versionRetentionDays: 90,
    webhookLogRetentionDays: 7,
    pruneIntervalMs: 5000,
    storage: { kind: 'local', dir: '/var/lib/fieldhouse/uploads' },
    publicUrl: null,
    assetsUrl: null,
    uploadMaxBytes: 1024 ** 3,
    uploadUrlTtlSeconds: 3600,
    signingSecret: null,
    images: {
      maxDimension: 8192,
      maxPixels: 40_000_000,
      maxInputPixels: 268_402_689,
      concurrency: availableParallelism(),
      maxWaiting: 100,
      renditionsDir: '/var/lib/fieldhouse/renditions',
      renditionsMaxBytes: 1024 ** 3,
    },
    consolePath: '/admin/',
  });
  assert.equal(loadConfig({}).consolePath, '/');
  assert.equal(loadConfig({ FIELDHOUSE_CONSOLE_PATH: 'off' }).consolePath, null);
  for (const [name, value] of [
    ['FIELDHOUSE_CONSOLE_PATH', '/admin'],
    ['FIELDHOUSE_CONSOLE_PATH', 'admin/'],
    ['FIELDHOUSE_CONSOLE_PATH', '/a b/'],
    ['PORT', '70000'],
    ['FIELDHOUSE_ASYNC_JOBS', 'yes'],
    ['FIELDHOUSE_DB_POOL_SIZE', '0'],
    ['DATABASE_URL', 'not a url'],
    ['FIELDHOUSE_WEBHOOK_ALLOW', '127.0.0.0/8,not a host'],
    ['FIELDHOUSE_WEBHOOK_ALLOW', '10.0.0.0/40'],
    ['FIELDHOUSE_WEBHOOK_RETRY_SCHEDULE', '60,-1'],
    ['FIELDHOUSE_WEBHOOK_RETRY_SCHEDULE', '2m'],
    ['FIELDHOUSE_WEBHOOK_RETRY_SCHEDULE', '99999999'],
    ['FIELDHOUSE_WORKER_CONCURRENCY', '0'],
    ['FIELDHOUSE_SCHEDULE_POLL_MS', '10'],
    ['FIELDHOUSE_RATE_LIMIT', '60'],
    ['FIELDHOUSE_RATE_LIMIT', '0/3'],
    ['FIELDHOUSE_RATE_LIMIT', '60/0'],
    ['FIELDHOUSE_CDA_RATE_LIMIT', '40'],
    ['FIELDHOUSE_CDA_RATE_LIMIT', '40/3'],
    ['FIELDHOUSE_CDA_RATE_LIMIT', '0/s'],
    ['FIELDHOUSE_CDA_RATE_LIMIT', '40/s,1000/day'],
    ['FIELDHOUSE_CDA_RATE_LIMIT', '40/s,50/s'],
    ['FIELDHOUSE_CDA_RATE_LIMIT', ','],
    ['FIELDHOUSE_VERSION_RETENTION_DAYS', '0'],
    ['FIELDHOUSE_WEBHOOK_LOG_RETENTION_DAYS', '30d'],
    ['FIELDHOUSE_PRUNE_INTERVAL_MS', '10'],
    ['FIELDHOUSE_STORAGE', 'ftp'],
    ['FIELDHOUSE_PUBLIC_URL', 'example.com'],
    ['FIELDHOUSE_ASSETS_URL', 'ftp://cdn.example.com'],
    ['FIELDHOUSE_UPLOAD_MAX_BYTES', '0'],
    ['FIELDHOUSE_UPLOAD_URL_TTL', '1'],
    ['FIELDHOUSE_SIGNING_SECRET', 'short'],
    ['FIELDHOUSE_IMAGE_MAX_DIMENSION', '0'],
    ['FIELDHOUSE_IMAGE_MAX_PIXELS', 'many'],
    ['FIELDHOUSE_IMAGE_MAX_INPUT_PIXELS', '-1'],
    ['FIELDHOUSE_IMAGE_CONCURRENCY', '0'],
    ['FIELDHOUSE_IMAGE_QUEUE', '1.5'],
    ['FIELDHOUSE_RENDITIONS_MAX_BYTES', '1000'],
  ]) {
    assert.throws(
      () => loadConfig({ [name as string]: value }),
      (error) => error instanceof ConfigError && error.variable === name,
    );
  }
});

test('upload storage: local under the data directory by default, or an S3-compatible bucket', () => {
  assert.deepEqual(loadConfig({ FIELDHOUSE_DATA_DIR: '/srv/fh' }).storage, {
    kind: 'local',
    dir: '/srv/fh/uploads',
  });
  const config = loadConfig({
    FIELDHOUSE_STORAGE: 's3',
    FIELDHOUSE_S3_BUCKET: 'assets',
    FIELDHOUSE_S3_ENDPOINT: 'http://minio:9000/',
    FIELDHOUSE_S3_ACCESS_KEY_ID: 'key',
    FIELDHOUSE_S3_SECRET_ACCESS_KEY: 'secret',
    FIELDHOUSE_S3_PREFIX: 'fh/',
    FIELDHOUSE_S3_DIRECT_UPLOAD: 'false',
    FIELDHOUSE_PUBLIC_URL: 'https://cms.example.com/',
    FIELDHOUSE_ASSETS_URL: 'https://cdn.example.com/assets',
    FIELDHOUSE_UPLOAD_MAX_BYTES: '1048576',
    FIELDHOUSE_UPLOAD_URL_TTL: '600',
    FIELDHOUSE_SIGNING_SECRET: 'x'.repeat(32),
  });
  assert.deepEqual(config.storage, {
    kind: 's3',
    bucket: 'assets',
    region: 'us-east-1',
    endpoint: 'http://minio:9000',
    credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    // A custom endpoint (MinIO, R2) defaults to path-style addressing.
    forcePathStyle: true,
    prefix: 'fh/',
    directUpload: false,
  });
  assert.equal(config.publicUrl, 'https://cms.example.com');
  assert.equal(config.assetsUrl, 'https://cdn.example.com/assets');
  assert.equal(config.uploadMaxBytes, 1_048_576);
  assert.equal(config.uploadUrlTtlSeconds, 600);
  assert.equal(config.signingSecret, 'x'.repeat(32));
  const aws = loadConfig({ FIELDHOUSE_STORAGE: 's3', FIELDHOUSE_S3_BUCKET: 'b' }).storage;
  assert.deepEqual(aws.kind === 's3' && [aws.endpoint, aws.forcePathStyle, aws.credentials], [
    null,
    false,
    null,
  ]);
  assert.throws(
    () => loadConfig({ FIELDHOUSE_STORAGE: 's3' }),
    (error) => error instanceof ConfigError && error.variable === 'FIELDHOUSE_S3_BUCKET',
  );
  assert.throws(
    () =>
      loadConfig({
        FIELDHOUSE_STORAGE: 's3',
        FIELDHOUSE_S3_BUCKET: 'b',
        FIELDHOUSE_S3_ACCESS_KEY_ID: 'k',
      }),
    (error) => error instanceof ConfigError && error.variable === 'FIELDHOUSE_S3_SECRET_ACCESS_KEY',
  );
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

test('image renditions: limits, render queue and a cache folder under the data directory', () => {
  const config = loadConfig({
    FIELDHOUSE_DATA_DIR: '/srv/fh',
    FIELDHOUSE_IMAGE_MAX_DIMENSION: '4096',
    FIELDHOUSE_IMAGE_MAX_PIXELS: '1000000',
    FIELDHOUSE_IMAGE_MAX_INPUT_PIXELS: '50000000',
    FIELDHOUSE_IMAGE_CONCURRENCY: '3',
    FIELDHOUSE_IMAGE_QUEUE: '0',
    FIELDHOUSE_RENDITIONS_DIR: '/cache/renditions',
    FIELDHOUSE_RENDITIONS_MAX_BYTES: '10485760',
  });
  assert.deepEqual(config.images, {
    maxDimension: 4096,
    maxPixels: 1_000_000,
    maxInputPixels: 50_000_000,
    concurrency: 3,
    maxWaiting: 0,
    renditionsDir: '/cache/renditions',
    renditionsMaxBytes: 10_485_760,
  });
  assert.equal(
    loadConfig({ FIELDHOUSE_DATA_DIR: '/srv/fh' }).images.renditionsDir,
    '/srv/fh/renditions',
  );
});
