import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely } from 'kysely';
import pg from 'pg';
import { type Config, cacheDir } from '../config.ts';
import { openEmbedded } from './embedded.ts';
import { autovacuumEvery } from './embedded-analyze.ts';
import { batchedProtocol } from './embedded-protocol.ts';
import { FoldedBeginDialect } from './folded-begin-dialect.ts';
import { acquireLockFile } from './lock-file.ts';
import { queryCounter } from './query-count.ts';
import type { ProjectDatabase } from './schema.ts';

export type Db = Kysely<ProjectDatabase>;

export type DatabaseHandle = {
  db: Db;
  kind: 'embedded' | 'postgres';
  /** A connection string other processes can use to LISTEN, or null when embedded. */
  url: string | null;
  /**
   * Embedded only: NOTIFYs of committed transactions reach this process's callbacks
   * directly. On PostgreSQL, listeners open a connection of their own with `url`.
   */
  listenInProcess:
    | ((channel: string, onNotify: (payload: string) => void) => Promise<() => Promise<void>>)
    | null;
  close(): Promise<void>;
};

// How often the embedded engine looks for tables to vacuum or analyze (embedded-analyze.ts):
// often enough that a burst of large updates reuses the space of the rows it replaced.
const AUTOVACUUM_INTERVAL_MS = 10_000;

// int8 (bigint ids, counts) arrive as strings; timestamps as Date objects.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

/**
 * node-postgres over PGlite's bridge, each statement's messages handed over at once.
 * PGlite is one session: a pool of one connection keeps each transaction whole.
 */
export function embeddedPool(pglite: PGlite): pg.Pool {
  return new pg.Pool({ ...createPgConfig(batchedProtocol(pglite)), max: 1 });
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'> &
    Partial<Pick<Config, 'cacheDir'>>,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.dbPoolSize });
    // An idle connection the server ends (restart, failover, admin) is dropped from the
    // pool and replaced on the next query; unhandled, its error would end the process.
    pool.on('error', (error) => {
      process.emitWarning(`PostgreSQL connection lost while idle: ${error.message}`);
    });
    const db = new Kysely<ProjectDatabase>({
      dialect: new FoldedBeginDialect(pool),
      log: queryCounter,
    });
    return {
      db,
      kind: 'postgres',
      url: config.databaseUrl,
      listenInProcess: null,
      close: () => db.destroy(),
    };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const release = acquireLockFile(join(config.dataDir, 'fieldhouse.lock'));
  try {
    const cache = config.cacheDir ?? cacheDir();
    const pglite = await openEmbedded(join(config.dataDir, 'pgdata'), cache);
    const pool = embeddedPool(pglite);
    const db = new Kysely<ProjectDatabase>({
      dialect: new FoldedBeginDialect(pool),
      log: queryCounter,
    });
    const stopAutovacuum = autovacuumEvery(db, AUTOVACUUM_INTERVAL_MS);
    return {
      db,
      kind: 'embedded',
      url: null,
      listenInProcess: (channel, onNotify) => pglite.listen(channel, onNotify),
      close: async () => {
        stopAutovacuum();
        await db.destroy();
        await pglite.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
