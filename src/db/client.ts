import type { Kysely } from 'kysely';
import { type Config, cacheDir } from '../config.ts';
import { openEmbeddedDatabase } from './engine/open-embedded.ts';
import { openPostgres } from './engine/open-postgres.ts';
import type { ProjectDatabase } from './schema.ts';

export type Db = Kysely<ProjectDatabase>;

/** The two engines Fieldhouse runs on: PGlite in this process, or a PostgreSQL server. */
export type Engine = 'embedded' | 'postgres';

export type DatabaseHandle = {
  db: Db;
  /** Which engine this is: code that behaves differently per engine asks the handle. */
  engine: Engine;
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

/** PostgreSQL when `databaseUrl` is set, else the embedded database in `dataDir`. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'> &
    Partial<Pick<Config, 'cacheDir'>>,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.dbPoolSize);
  return openEmbeddedDatabase(config.dataDir, config.cacheDir ?? cacheDir());
}
