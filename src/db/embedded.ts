import { fork } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';

// Postgres' default 128MB of shared buffers keeps ~300MB resident in WASM; 8MB
// (1024 pages) still holds a schema-sized database and is ~14MB less resident than 16MB.
// PGlite runs one backend, yet shared memory (lock and process tables) is sized for
// max_connections: 5 instead of 100 keeps ~4MB less of WASM memory resident.
const POSTGRESQL_CONF = ['shared_buffers=8MB', 'max_connections=5'];

const INIT_SCRIPT = fileURLToPath(new URL('./embedded-init.ts', import.meta.url));

export function isInitialized(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * A fresh data directory runs initdb in WASM, which leaves ~700MB resident for the
 * life of the process. Doing it in a short-lived child keeps the server lean.
 */
async function initializeInChild(dataDir: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    // The child runs TypeScript whichever way the parent was started.
    const child = fork(INIT_SCRIPT, [dataDir], { stdio: 'inherit', execArgv: ['--import', 'tsx'] });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`embedded database init exited with ${code}`)),
    );
  });
}

export async function createPGlite(dataDir: string): Promise<PGlite> {
  // V8 otherwise keeps optimised (TurboFan) code next to the baseline code for the
  // 9MB Postgres module, ~50MB resident; schema-sized queries run as fast on baseline
  // code, and lazy compilation leaves the never-called parts of Postgres uncompiled.
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--wasm-lazy-compilation');
  return PGlite.create(dataDir, { postgresqlconf: POSTGRESQL_CONF });
}

export async function openEmbedded(dataDir: string): Promise<PGlite> {
  mkdirSync(dataDir, { recursive: true });
  if (!isInitialized(dataDir)) await initializeInChild(dataDir);
  return createPGlite(dataDir);
}
