import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { ImageConfig } from './assets/image-config.ts';
import { INSTALL_ROOT } from './paths.ts';
import type { RateLimit } from './rate-limit/store.ts';
import type { StorageConfig } from './storage/storage-config.ts';
import { allowEntryProblem } from './webhook-worker/allowlist.ts';
import { DATOCMS_RETRY_SCHEDULE } from './webhook-worker/retry-schedule.ts';

/** Every setting Fieldhouse reads, typed and validated once at start. */
export type Config = {
  host: string;
  port: number;
  databaseUrl: string | null;
  dataDir: string;
  /** Kept between runs and shared by data directories: initdb's output for the embedded database. */
  cacheDir: string;
  adminToken: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  asyncJobs: boolean;
  dbPoolSize: number;
  /** Hostnames and CIDRs webhooks may reach although they are private, loopback, … */
  webhookAllow: string[];
  /** Seconds between a failed delivery and its next automatic retry, one per retry. */
  webhookRetrySchedule: number[];
  /** Webhook deliveries one worker process sends at once. */
  workerConcurrency: number;
  /** How often a worker process looks for due scheduled publications and unpublishings. */
  schedulePollMs: number;
  /** Requests each API token may make per window; null turns rate limiting off. */
  rateLimit: RateLimit | null;
  /** Delivery API requests each API token may make, per window, all at once; null: off. */
  cdaRateLimit: RateLimit[] | null;
  /** Days a record version is kept once saved (a record's current and published ones always). */
  versionRetentionDays: number;
  /** Days a finished webhook call (and its attempts) stays in the delivery log. */
  webhookLogRetentionDays: number;
  /** How often a worker process prunes versions, delivered events and old delivery logs. */
  pruneIntervalMs: number;
  /** Where upload bytes are stored. */
  storage: StorageConfig;
  /** This server's external origin (no trailing slash); null: the origin a request arrived on. */
  publicUrl: string | null;
  /** Base of every upload's `url`; null: `<public origin>/assets`. */
  assetsUrl: string | null;
  /** Largest file one upload may hold, in bytes. */
  uploadMaxBytes: number;
  /** Seconds an upload URL stays valid. */
  uploadUrlTtlSeconds: number;
  /** HMAC key of upload URLs; null: a random one generated once and kept in the database. */
  signingSecret: string | null;
  /** Image renditions of asset URLs: their limits, render queue and cache. */
  images: ImageConfig;
  /** Where the web console is served (`/…/`), or null when it is off. */
  consolePath: string | null;
};

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function databaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a valid URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// or postgresql://');
  }
  return raw;
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

function webhookAllow(env: Env): string[] {
  const entries = list(env, 'FIELDHOUSE_WEBHOOK_ALLOW');
  for (const entry of entries) {
    const problem = allowEntryProblem(entry);
    if (problem) throw new ConfigError('FIELDHOUSE_WEBHOOK_ALLOW', `${problem} (got "${entry}")`);
  }
  return entries;
}

const MAX_RETRY_DELAY_SECONDS = 30 * 24 * 3600;

function retrySchedule(env: Env): number[] {
  const entries = list(env, 'FIELDHOUSE_WEBHOOK_RETRY_SCHEDULE');
  if (entries.length === 0) return [...DATOCMS_RETRY_SCHEDULE];
  for (const entry of entries) {
    if (!/^\d+(\.\d+)?$/.test(entry) || Number(entry) > MAX_RETRY_DELAY_SECONDS) {
      throw new ConfigError(
        'FIELDHOUSE_WEBHOOK_RETRY_SCHEDULE',
        `must be comma-separated delays in seconds, each at most ${MAX_RETRY_DELAY_SECONDS} (got "${entry}")`,
      );
    }
  }
  return entries.map(Number);
}

/** `<requests>/<seconds>`, e.g. DatoCMS's `60/3`; unset or `off` disables the limit. */
function rateLimit(env: Env): RateLimit | null {
  const raw = env.FIELDHOUSE_RATE_LIMIT;
  if (raw === undefined || raw === '' || raw === 'off') return null;
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  const limit = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (!match || limit < 1 || windowSeconds < 1 || windowSeconds > 3600) {
    throw new ConfigError(
      'FIELDHOUSE_RATE_LIMIT',
      `must be <requests>/<seconds> such as 60/3, or off (got "${raw}")`,
    );
  }
  return { limit, windowSeconds };
}

const WINDOW_UNITS: Record<string, number> = { s: 1, min: 60, h: 3600 };

/** `<requests>/s|min|h`, comma-separated, e.g. DatoCMS's `40/s,1000/min`; unset or `off` disables it. */
function cdaRateLimit(env: Env): RateLimit[] | null {
  const raw = env.FIELDHOUSE_CDA_RATE_LIMIT;
  if (raw === undefined || raw === '' || raw === 'off') return null;
  const entries = list(env, 'FIELDHOUSE_CDA_RATE_LIMIT');
  const limits = (entries.length > 0 ? entries : [raw]).map((entry) => {
    const match = /^(\d{1,9})\/(s|min|h)$/.exec(entry);
    const limit = Number(match?.[1]);
    if (!match || limit < 1) {
      throw new ConfigError(
        'FIELDHOUSE_CDA_RATE_LIMIT',
        `must be comma-separated <requests>/s, /min or /h such as 40/s,1000/min, or off (got "${entry}")`,
      );
    }
    return { limit, windowSeconds: WINDOW_UNITS[match[2] as string] as number };
  });
  if (new Set(limits.map((l) => l.windowSeconds)).size < limits.length) {
    throw new ConfigError(
      'FIELDHOUSE_CDA_RATE_LIMIT',
      `must name each window (s, min, h) at most once (got "${raw}")`,
    );
  }
  return limits;
}

function url(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a valid URL (got "${raw}")`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(name, `must start with http:// or https:// (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

function storage(env: Env, dataDir: string): StorageConfig {
  const kind = env.FIELDHOUSE_STORAGE || 'local';
  if (kind === 'local') {
    return { kind, dir: resolve(env.FIELDHOUSE_STORAGE_DIR || join(dataDir, 'uploads')) };
  }
  if (kind !== 's3')
    throw new ConfigError('FIELDHOUSE_STORAGE', `must be local or s3 (got "${kind}")`);
  const bucket = env.FIELDHOUSE_S3_BUCKET;
  if (!bucket)
    throw new ConfigError('FIELDHOUSE_S3_BUCKET', 'is required when FIELDHOUSE_STORAGE is s3');
  const endpoint = url(env, 'FIELDHOUSE_S3_ENDPOINT');
  const accessKeyId = env.FIELDHOUSE_S3_ACCESS_KEY_ID || '';
  const secretAccessKey = env.FIELDHOUSE_S3_SECRET_ACCESS_KEY || '';
  if ((accessKeyId === '') !== (secretAccessKey === '')) {
    throw new ConfigError(
      accessKeyId === '' ? 'FIELDHOUSE_S3_ACCESS_KEY_ID' : 'FIELDHOUSE_S3_SECRET_ACCESS_KEY',
      'must be set together with its pair',
    );
  }
  return {
    kind,
    bucket,
    region: env.FIELDHOUSE_S3_REGION || 'us-east-1',
    endpoint,
    credentials: accessKeyId === '' ? null : { accessKeyId, secretAccessKey },
    forcePathStyle: boolean(env, 'FIELDHOUSE_S3_FORCE_PATH_STYLE', endpoint !== null),
    prefix: env.FIELDHOUSE_S3_PREFIX || '',
    directUpload: boolean(env, 'FIELDHOUSE_S3_DIRECT_UPLOAD', true),
  };
}

function signingSecret(env: Env): string | null {
  const raw = env.FIELDHOUSE_SIGNING_SECRET;
  if (raw === undefined || raw === '') return null;
  if (raw.length < 32)
    throw new ConfigError('FIELDHOUSE_SIGNING_SECRET', 'must be at least 32 characters');
  return raw;
}

function images(env: Env, dataDir: string): ImageConfig {
  return {
    maxDimension: integer(env, 'FIELDHOUSE_IMAGE_MAX_DIMENSION', 8192, 1, 65_500),
    maxPixels: integer(env, 'FIELDHOUSE_IMAGE_MAX_PIXELS', 40_000_000, 1, 1_000_000_000),
    maxInputPixels: integer(
      env,
      'FIELDHOUSE_IMAGE_MAX_INPUT_PIXELS',
      268_402_689,
      1,
      4_294_967_295,
    ),
    concurrency: integer(env, 'FIELDHOUSE_IMAGE_CONCURRENCY', availableParallelism(), 1, 256),
    maxWaiting: integer(env, 'FIELDHOUSE_IMAGE_QUEUE', 100, 0, 100_000),
    renditionsDir: resolve(env.FIELDHOUSE_RENDITIONS_DIR || join(dataDir, 'renditions')),
    renditionsMaxBytes: integer(
      env,
      'FIELDHOUSE_RENDITIONS_MAX_BYTES',
      1024 ** 3,
      1024 * 1024,
      Number.MAX_SAFE_INTEGER,
    ),
  };
}

/** `/` unless told: a path of its own segments ending in `/`, or `off`. */
function consolePath(env: Env): string | null {
  const raw = env.FIELDHOUSE_CONSOLE_PATH;
  if (raw === undefined || raw === '') return '/';
  if (raw === 'off') return null;
  if (!/^\/([A-Za-z0-9_-]+\/)*$/.test(raw)) {
    throw new ConfigError(
      'FIELDHOUSE_CONSOLE_PATH',
      `must be / or /<segment>/… ending in /, or off (got "${raw}")`,
    );
  }
  return raw;
}

/** FIELDHOUSE_CACHE_DIR, else `.cache` in the installation (beside the bundle bin/ runs). */
export function cacheDir(env: Env = process.env): string {
  return resolve(env.FIELDHOUSE_CACHE_DIR || join(INSTALL_ROOT, '.cache'));
}

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const adminToken = env.FIELDHOUSE_ADMIN_TOKEN || null;
  if (adminToken !== null && !TOKEN_PATTERN.test(adminToken)) {
    throw new ConfigError(
      'FIELDHOUSE_ADMIN_TOKEN',
      'must be 16 to 128 characters of letters, digits, "-" or "_"',
    );
  }
  const dataDir = resolve(env.FIELDHOUSE_DATA_DIR || './data');
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 3000, 0, 65535),
    databaseUrl: databaseUrl(env),
    dataDir,
    cacheDir: cacheDir(env),
    adminToken,
    logLevel: logLevel as Config['logLevel'],
    asyncJobs: boolean(env, 'FIELDHOUSE_ASYNC_JOBS', false),
    dbPoolSize: integer(env, 'FIELDHOUSE_DB_POOL_SIZE', 10, 1, 1000),
    webhookAllow: webhookAllow(env),
    webhookRetrySchedule: retrySchedule(env),
    workerConcurrency: integer(env, 'FIELDHOUSE_WORKER_CONCURRENCY', 16, 1, 1000),
    schedulePollMs: integer(env, 'FIELDHOUSE_SCHEDULE_POLL_MS', 5000, 50, 3_600_000),
    rateLimit: rateLimit(env),
    cdaRateLimit: cdaRateLimit(env),
    versionRetentionDays: integer(env, 'FIELDHOUSE_VERSION_RETENTION_DAYS', 30, 1, 36_500),
    webhookLogRetentionDays: integer(env, 'FIELDHOUSE_WEBHOOK_LOG_RETENTION_DAYS', 30, 1, 36_500),
    pruneIntervalMs: integer(env, 'FIELDHOUSE_PRUNE_INTERVAL_MS', 60_000, 50, 86_400_000),
    storage: storage(env, dataDir),
    publicUrl: url(env, 'FIELDHOUSE_PUBLIC_URL'),
    assetsUrl: url(env, 'FIELDHOUSE_ASSETS_URL'),
    uploadMaxBytes: integer(env, 'FIELDHOUSE_UPLOAD_MAX_BYTES', 1024 ** 3, 1, 5 * 1024 ** 4),
    uploadUrlTtlSeconds: integer(env, 'FIELDHOUSE_UPLOAD_URL_TTL', 3600, 10, 7 * 24 * 3600),
    signingSecret: signingSecret(env),
    images: images(env, dataDir),
    consolePath: consolePath(env),
  };
}

/** Reads `.env` from the working directory into process.env, without overriding set values. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
