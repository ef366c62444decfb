// Directus 11.3.5 as the benches run it: installed on first use into .cache/ (npm, about
// 500 MB; its SQLite driver is built from source when npm runs no install scripts), then
// bootstrapped into a database and started with its defaults, but for where it stores
// uploaded files: a scratch folder of the run's own, removed when it stops.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { INSTALL_ROOT } from '../src/paths.ts';

export const DIRECTUS_VERSION = '11.3.5';
const DIRECTUS_DIR = join(INSTALL_ROOT, '.cache', `directus-${DIRECTUS_VERSION}`);
const DIRECTUS_CLI = join(DIRECTUS_DIR, 'node_modules', 'directus', 'cli.js');
export const TOKEN = 'bench-admin-token-000000004';

/** Installs Directus where the bench keeps it, once. */
export function installDirectus(): void {
  if (existsSync(DIRECTUS_CLI)) return;
  mkdirSync(DIRECTUS_DIR, { recursive: true });
  writeFileSync(join(DIRECTUS_DIR, 'package.json'), '{"private":true}\n');
  process.stdout.write(`installing directus@${DIRECTUS_VERSION} into ${DIRECTUS_DIR}…\n`);
  const npm = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', `directus@${DIRECTUS_VERSION}`],
    { cwd: DIRECTUS_DIR, stdio: 'inherit' },
  );
  if (npm.status !== 0) throw new Error(`npm install directus exited with ${npm.status}`);
  // npm 11 runs no install scripts unless allowed: the SQLite driver is then left unbuilt.
  const rebuild = spawnSync('npm', ['rebuild', 'sqlite3', '--loglevel=error'], {
    cwd: DIRECTUS_DIR,
    stdio: 'inherit',
  });
  if (rebuild.status !== 0) throw new Error(`npm rebuild sqlite3 exited with ${rebuild.status}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export type RunningDirectus = { baseUrl: string; child: ChildProcess; stop(): Promise<void> };

/** Where Directus keeps its data: a PostgreSQL database, or an SQLite file. */
export type DirectusDatabase =
  | { DB_CLIENT: 'pg'; DB_CONNECTION_STRING: string }
  | { DB_CLIENT: 'sqlite3'; DB_FILENAME: string };

/** Bootstraps Directus into the database (migrations, admin with TOKEN) and starts it. */
export async function startDirectus(database: DirectusDatabase): Promise<RunningDirectus> {
  // Its default, ./uploads, is inside the shared install (the process's working directory).
  const uploads = mkdtempSync(join(tmpdir(), 'directus-uploads-'));
  try {
    return await bootstrapAndStart(database, uploads);
  } catch (error) {
    rmSync(uploads, { recursive: true, force: true });
    throw error;
  }
}

async function bootstrapAndStart(
  database: DirectusDatabase,
  uploads: string,
): Promise<RunningDirectus> {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...database,
    SECRET: 'bench-secret-not-for-production',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'bench-password',
    ADMIN_TOKEN: TOKEN,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    TELEMETRY: 'false',
    STORAGE_LOCAL_ROOT: uploads,
  };
  // Not spawnSync: a bench may serve Directus's database connection itself (a counting
  // proxy, bench/statement-counter.ts), which a blocked event loop would stall.
  const bootstrap = spawn(process.execPath, [DIRECTUS_CLI, 'bootstrap'], {
    cwd: DIRECTUS_DIR,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let bootstrapErrors = '';
  bootstrap.stderr?.on('data', (chunk: Buffer) => {
    bootstrapErrors = (bootstrapErrors + chunk.toString()).slice(-4_000);
  });
  const [status] = (await once(bootstrap, 'exit')) as [number | null];
  if (status !== 0)
    throw new Error(`directus bootstrap exited with ${status}:\n${bootstrapErrors}`);
  const child = spawn(process.execPath, [DIRECTUS_CLI, 'start'], {
    cwd: DIRECTUS_DIR,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Kept for the error should it stop: its banner and warnings would crowd the results.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    if (child.exitCode !== null)
      throw new Error(`directus exited with ${child.exitCode}:\n${stderr}`);
    const healthy = await fetch(`${baseUrl}/server/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (waited > 120_000) throw new Error('directus did not become healthy in 2 minutes');
    await sleep(200);
  }
  return {
    baseUrl,
    child,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(uploads, { recursive: true, force: true });
    },
  };
}
