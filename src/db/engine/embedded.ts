import { fork } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { INSTALL_ROOT } from '../../paths.ts';
import { processIsAlive } from './process-alive.ts';

// Postgres' default 128MB of shared buffers keeps ~300MB resident in WASM; 8MB
// (1024 pages) still holds a schema-sized database and is ~14MB less resident than 16MB.
// PGlite runs one backend, yet shared memory (lock and process tables) is sized for
// max_connections: 5 instead of 100 keeps ~4MB less of WASM memory resident.
// The last line lets record writes announce the records version they moved to, to this
// process, which keeps what tokens authenticate to and so reads no token to learn it
// (project migrations 0010 and 0012); PGlite writes this configuration at every start,
// so a data directory made by an older release gets it too.
const RECORD_ANNOUNCEMENTS_SETTING = 'fieldhouse.announce_record_changes';
const POSTGRESQL_CONF = [
  'shared_buffers=8MB',
  'max_connections=5',
  // A checkpoint once 32MB of WAL is written, and no more than that kept for reuse: the
  // default (1GB) let the data directory grow by up to 1GB of old WAL.
  'max_wal_size=32MB',
  'min_wal_size=32MB',
  `${RECORD_ANNOUNCEMENTS_SETTING}=on`,
];

const INIT_SCRIPT = join(INSTALL_ROOT, 'src', 'db', 'engine', 'embedded-init.ts');

/** The PGlite release: a template data directory serves only the release that made it. */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  // The package's entry is dist/index.*; its package.json is one level up.
  const manifest = join(dirname(entry), '..', 'package.json');
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

/** Where the initdb result is kept for this PGlite release, under the cache directory. */
export function templateDirIn(cacheDir: string): string {
  return join(cacheDir, `pglite-${pgliteVersion()}-initdb`);
}

export function isInitialized(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

const INIT_SUFFIX = '.init-';

/**
 * Where the init child with this pid builds a new data directory: a sibling of it (one
 * filesystem, so the rename into place is atomic), named by the pid so a directory left
 * by a dead init is told apart from one an orphaned, still-running init writes to.
 */
export function initDirFor(dataDir: string, pid: number): string {
  return `${dataDir}${INIT_SUFFIX}${pid}`;
}

/** Removes the build directories of inits whose process is gone; a live one's is left alone. */
function removeAbandonedInits(dataDir: string): void {
  const prefix = `${basename(dataDir)}${INIT_SUFFIX}`;
  for (const entry of readdirSync(dirname(dataDir))) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(entry.slice(prefix.length));
    if (Number.isInteger(pid) && pid > 0 && processIsAlive(pid)) continue;
    rmSync(join(dirname(dataDir), entry), { recursive: true, force: true });
  }
}

/** Makes a rename durable: the directory entry itself is written to disk. */
function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * initdb in WASM takes seconds and leaves ~700MB resident for the life of the process.
 * Doing it in a short-lived child keeps the server lean.
 * The child builds the database in a directory of its own, and only this process
 * renames it into place once the child has succeeded: a child orphaned by a killed
 * parent (it exits as soon as it notices) never writes where a restarted server works.
 */
async function initializeInChild(dataDir: string): Promise<void> {
  mkdirSync(dirname(dataDir), { recursive: true });
  removeAbandonedInits(dataDir);
  // The child runs TypeScript whichever way the parent was started.
  const child = fork(INIT_SCRIPT, [dataDir], { stdio: 'inherit', execArgv: ['--import', 'tsx'] });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  const initDir = child.pid === undefined ? null : initDirFor(dataDir, child.pid);
  if (code !== 0 || !initDir) {
    if (initDir) rmSync(initDir, { recursive: true, force: true });
    throw new Error(`embedded database init exited with ${code}`);
  }
  publish(initDir, dataDir);
}

/**
 * Renames a whole directory into place, durably. When another process published the
 * same template first, its copy is kept and this one dropped: both are initdb's output.
 */
function publish(builtDir: string, dataDir: string): void {
  try {
    renameSync(builtDir, dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !isInitialized(dataDir)) throw error;
    rmSync(builtDir, { recursive: true, force: true });
  }
  syncDirectory(dirname(dataDir));
}

/**
 * A new data directory is a copy of initdb's output, which is made once (in a child) and
 * kept in the cache directory: every later new data directory starts in the time of a
 * file copy instead of initdb's seconds. The copy is built beside the data directory,
 * named by this process, and renamed into place whole.
 */
async function createDataDir(dataDir: string, cacheDir: string): Promise<void> {
  const template = templateDirIn(cacheDir);
  if (!isInitialized(template)) await initializeInChild(template);
  removeAbandonedInits(dataDir);
  const copyDir = initDirFor(dataDir, process.pid);
  rmSync(copyDir, { recursive: true, force: true });
  cpSync(template, copyDir, { recursive: true });
  publish(copyDir, dataDir);
}

export async function createPGlite(dataDir: string): Promise<PGlite> {
  // V8 otherwise keeps optimised (TurboFan) code next to the baseline code for the
  // 9MB Postgres module, ~50MB resident; schema-sized queries run as fast on baseline
  // code, and lazy compilation leaves the never-called parts of Postgres uncompiled.
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--wasm-lazy-compilation');
  return PGlite.create(dataDir, { postgresqlconf: POSTGRESQL_CONF });
}

export async function openEmbedded(dataDir: string, cacheDir: string): Promise<PGlite> {
  if (!isInitialized(dataDir)) {
    // A data directory without PG_VERSION holds no database: it is what an in-place init
    // of an earlier version left when it was interrupted, and it would block the rename.
    rmSync(dataDir, { recursive: true, force: true });
    await createDataDir(dataDir, cacheDir);
  }
  return createPGlite(dataDir);
}
