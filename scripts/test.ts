// `npm test`: prepares a migrated template database per engine, then runs the whole
// suite on the embedded database and on PostgreSQL, and prints one closing line.
// Usage: tsx scripts/test.ts [embedded|postgres ...] [-- test files]
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import {
  EMBEDDED_TEMPLATE_DIR,
  migrationsHash,
  POSTGRES_TEMPLATE_DB,
  postgresUrl,
  withAdminClient,
} from '../test/support/databases.ts';

type Engine = 'embedded' | 'postgres';

/**
 * The console's browser tests (test/console/) drive the web page, which is the same on
 * either engine: they run on the embedded database only, and the PostgreSQL run says so.
 */
const EMBEDDED_ONLY = join('test', 'console');

function filesFor(engine: Engine, files: string[]): string[] {
  if (engine === 'embedded') return files;
  const kept = files.filter((file) => !file.startsWith(EMBEDDED_ONLY));
  const left = files.length - kept.length;
  if (left > 0) {
    process.stdout.write(
      `${left} browser test file(s) under ${EMBEDDED_ONLY}/ run on the embedded database only\n`,
    );
  }
  return kept;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(dir, file))
    .sort();
}

async function prepareEmbeddedTemplate(): Promise<void> {
  const marker = `${EMBEDDED_TEMPLATE_DIR}.migrations`;
  const hash = migrationsHash();
  if (existsSync(marker) && readFileSync(marker, 'utf8') === hash) return;
  rmSync(EMBEDDED_TEMPLATE_DIR, { recursive: true, force: true });
  const scratch = `${EMBEDDED_TEMPLATE_DIR}-build`;
  rmSync(scratch, { recursive: true, force: true });
  const database = await openDatabase({ databaseUrl: null, dataDir: scratch, dbPoolSize: 1 });
  await migrateToLatest(database.db);
  await database.close();
  renameSync(join(scratch, 'pgdata'), EMBEDDED_TEMPLATE_DIR);
  rmSync(scratch, { recursive: true, force: true });
  writeFileSync(marker, hash);
}

/** Built once per migrations hash (the hash names the template and is its comment). */
async function preparePostgresTemplate(): Promise<void> {
  const hash = migrationsHash();
  const current = await withAdminClient(async (client) => {
    const result = await client.query(
      `SELECT shobj_description(oid, 'pg_database') AS hash FROM pg_database WHERE datname = $1`,
      [POSTGRES_TEMPLATE_DB],
    );
    return result.rows[0]?.hash as string | undefined;
  });
  if (current === hash) return;
  await withAdminClient(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${POSTGRES_TEMPLATE_DB} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${POSTGRES_TEMPLATE_DB}`);
  });
  const database = await openDatabase({
    databaseUrl: postgresUrl(POSTGRES_TEMPLATE_DB),
    dataDir: '',
    dbPoolSize: 1,
  });
  await migrateToLatest(database.db);
  await database.close();
  await withAdminClient((client) =>
    client.query(`COMMENT ON DATABASE ${POSTGRES_TEMPLATE_DB} IS '${hash}'`),
  );
}

/**
 * Several test runs may start at once (developers, agents): only one builds a template
 * while the others wait. mkdir is atomic; a lock older than 5 minutes is a dead run's.
 */
async function withTemplateLock(engine: Engine, build: () => Promise<void>): Promise<void> {
  const lock = join('.cache', `template-${engine}.lock`);
  mkdirSync('.cache', { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const stale = Date.now() - (statSafe(lock) ?? Date.now()) > 5 * 60_000;
      if (stale) rmSync(lock, { recursive: true, force: true });
      else await sleep(200);
    }
  }
  try {
    await build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function statSafe(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

type Outcome = { passed: number; failed: number; skipped: number };

function runSuite(engine: Engine, files: string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
      { env: { ...process.env, FIELDHOUSE_TEST_DB: engine }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const count = (name: string) =>
        Number(new RegExp(`^ℹ ${name} (\\d+)$`, 'm').exec(output)?.[1] ?? 0);
      const outcome = { passed: count('pass'), failed: count('fail'), skipped: count('skipped') };
      if (code !== 0 && outcome.failed === 0) outcome.failed = 1; // crashed before reporting
      resolve(outcome);
    });
  });
}

const separator = process.argv.indexOf('--');
const args = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const engines = (args.length ? args : ['embedded', 'postgres']) as Engine[];
const files = separator === -1 ? testFiles('test') : process.argv.slice(separator + 1);
const total: Outcome = { passed: 0, failed: 0, skipped: 0 };
for (const engine of engines) {
  process.stdout.write(`\n=== ${engine} ===\n`);
  await withTemplateLock(
    engine,
    engine === 'embedded' ? prepareEmbeddedTemplate : preparePostgresTemplate,
  );
  const engineFiles = filesFor(engine, files);
  if (engineFiles.length === 0) continue;
  const outcome = await runSuite(engine, engineFiles);
  process.stdout.write(`${engine}: ${outcome.passed} passed, ${outcome.failed} failed\n`);
  total.passed += outcome.passed;
  total.failed += outcome.failed;
  total.skipped += outcome.skipped;
}
process.stdout.write(
  `\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`,
);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
