import { Kysely } from 'kysely';
import pg from 'pg';
import type { DatabaseHandle } from '../client.ts';
import { PipeliningDialect } from '../query/pipelining-dialect.ts';
import { statementPrinter } from '../query/query-count.ts';
import { registerEngine } from './engine-of.ts';
import './pg-types.ts';
import type { ProjectDatabase } from '../schema.ts';

/** A pool of `poolSize` connections to the PostgreSQL server at `url`. */
export function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server ends (restart, failover, admin) is dropped from the
  // pool and replaced on the next query; unhandled, its error would end the process.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL connection lost while idle: ${error.message}`);
  });
  const db = new Kysely<ProjectDatabase>({
    dialect: new PipeliningDialect(pool),
    log: statementPrinter,
  });
  registerEngine(db, 'postgres');
  return {
    db,
    engine: 'postgres',
    url,
    listenInProcess: null,
    close: () => db.destroy(),
  };
}
