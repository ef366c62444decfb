import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Which engine this test run uses: FIELDHOUSE_TEST_DB=embedded (default) or postgres. */
export const TEST_ENGINE = process.env.FIELDHOUSE_TEST_DB === 'postgres' ? 'postgres' : 'embedded';

export const POSTGRES_ADMIN_URL =
  process.env.FIELDHOUSE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const EMBEDDED_TEMPLATE_DIR = join(process.cwd(), '.cache', 'pglite-template');

/**
 * A hash of everything under src/db (migrations and the code that runs them): a
 * template is rebuilt when it changes.
 */
export function migrationsHash(): string {
  const dir = join('src', 'db');
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    if (!file.endsWith('.ts')) continue;
    hash.update(file).update(readFileSync(join(dir, file)));
  }
  return hash.digest('hex');
}

/**
 * Named by the migrations' hash, so checkouts with different migrations (worktrees,
 * branches tested side by side) each have their own template instead of dropping
 * one another's.
 */
export const POSTGRES_TEMPLATE_DB = `fieldhouse_tpl_${migrationsHash().slice(0, 16)}`;

export function postgresUrl(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export type TestDatabase =
  | { engine: 'embedded'; dataDir: string; drop(): Promise<void> }
  | { engine: 'postgres'; url: string; drop(): Promise<void> };

/**
 * A fresh, migrated, empty database for one test file: a copy of the prepared
 * template (scripts/test.ts makes it), so no test pays for initdb.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_ENGINE === 'embedded') {
    if (!existsSync(EMBEDDED_TEMPLATE_DIR)) {
      throw new Error('No embedded template: run the tests with `npm test`');
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'fieldhouse-test-'));
    cpSync(EMBEDDED_TEMPLATE_DIR, join(dataDir, 'pgdata'), { recursive: true });
    return {
      engine: 'embedded',
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `fieldhouse_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${POSTGRES_TEMPLATE_DB}`),
  );
  return {
    engine: 'postgres',
    url: postgresUrl(name),
    drop: async () => {
      await withAdminClient((client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

/** The database settings `openDatabase` takes to reach a test database. */
export function databaseConfig(database: TestDatabase, dbPoolSize = 1) {
  return {
    databaseUrl: database.engine === 'postgres' ? database.url : null,
    dataDir: database.engine === 'embedded' ? database.dataDir : '',
    dbPoolSize,
  };
}
