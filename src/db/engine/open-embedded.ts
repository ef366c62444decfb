import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely } from 'kysely';
import pg from 'pg';
import type { DatabaseHandle } from '../client.ts';
import { PipeliningDialect } from '../query/pipelining-dialect.ts';
import { statementPrinter } from '../query/query-count.ts';
import './pg-types.ts';
import type { ProjectDatabase } from '../schema.ts';
import { openEmbedded } from './embedded.ts';
import { autovacuumEvery } from './embedded-analyze.ts';
import { batchedProtocol } from './embedded-protocol.ts';
import { registerEngine } from './engine-of.ts';
import { acquireLockFile } from './lock-file.ts';

// How often the embedded engine looks for tables to vacuum or analyze (embedded-analyze.ts):
// often enough that a burst of large updates reuses the space of the rows it replaced.
const AUTOVACUUM_INTERVAL_MS = 10_000;

/**
 * node-postgres over PGlite's bridge, each statement's messages handed over at once.
 * PGlite is one session: a pool of one connection keeps each transaction whole.
 */
export function embeddedPool(pglite: PGlite): pg.Pool {
  return new pg.Pool({ ...createPgConfig(batchedProtocol(pglite)), max: 1 });
}

/** The embedded database in `dataDir`, owned by this process until closed (a lock file). */
export async function openEmbeddedDatabase(
  dataDir: string,
  cacheDir: string,
): Promise<DatabaseHandle> {
  mkdirSync(dataDir, { recursive: true });
  const release = acquireLockFile(join(dataDir, 'fieldhouse.lock'));
  try {
    const pglite = await openEmbedded(join(dataDir, 'pgdata'), cacheDir);
    const pool = embeddedPool(pglite);
    const db = new Kysely<ProjectDatabase>({
      dialect: new PipeliningDialect(pool),
      log: statementPrinter,
    });
    registerEngine(db, 'embedded');
    const stopAutovacuum = autovacuumEvery(db, AUTOVACUUM_INTERVAL_MS);
    return {
      db,
      engine: 'embedded',
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
