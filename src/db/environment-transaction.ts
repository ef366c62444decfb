import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { ENVIRONMENT_LOCK_KEY } from './environment-locks.ts';
import {
  type CachePlace,
  environmentRef,
  type Scope,
  type ScopedTransaction,
  scopedTransaction,
} from './environment-scope.ts';
import { throughWriteGate } from './environment-write-gate.ts';
import type { EnvironmentRow } from './schema.ts';
import { isConcurrencyConflict, type Trx } from './transaction.ts';

// A change to one environment: one transaction entered under the environment's lock, with
// its checks, through the write gate; how the pieces fit is in this folder's README.

/** What a change reads of its environment once it holds the lock (enter_environment). */
type EnvironmentCheck = Pick<
  EnvironmentRow,
  'id' | 'number' | 'schema_name' | 'is_primary' | 'status' | 'read_only_mode' | 'schema_version'
> & { maintenance_mode: boolean };

/**
 * Takes the environment's lock, then reads its row with its schema version and the site's
 * maintenance mode: one statement, a function whose reads follow the lock (project
 * migrations 0008, 0009 and 0015). A schema change takes the lock exclusively and touches
 * the row (`enter_environment`); a record change takes it shared and moves its backend's
 * records-version slot instead (`enter_records`): record writes do not queue on one lock or
 * one row. Undefined when the environment's row is gone.
 */
async function enterEnvironment(
  trx: Trx,
  environmentNumber: number,
  records: boolean,
): Promise<EnvironmentCheck | undefined> {
  const { rows } = await (records
    ? sql<EnvironmentCheck>`
        SELECT * FROM enter_records(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(environmentNumber)})
      `
    : sql<EnvironmentCheck>`
        SELECT * FROM enter_environment(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(environmentNumber)})
      `
  ).execute(trx);
  return rows[0];
}

/**
 * Open until a transaction's handles send their first statement. Kysely passes every
 * statement it builds through `transformQuery` before sending it; a prepared shape
 * (prepared.ts), compiled once, passes only through `transformResult` when it returns,
 * which closes the gate before any code awaiting it runs on.
 */
class FirstStatementGate implements KyselyPlugin {
  open = true;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.open = false;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.open = false;
    return args.result;
  }
}

export type ChangeOptions = Readonly<{ readsSchemaCache?: boolean }>;

/**
 * A change that writes no schema rows before its last read of the schema: a record change
 * (a model's singleton link is written last). It holds the environment's lock shared, so
 * no schema change commits meanwhile: the version read under it is the schema such a
 * change reads, and its reads may be served from the schema cache at that version. Record
 * changes do not exclude each other: what they must exclude, they name
 * (`excludeRecordKeys`, row locks). A change that writes schema rows holds the lock
 * exclusively and reads the schema as its own writes left it: from the cache only in its
 * first read, before it writes anything (ScopedTransaction's `atEntry`).
 */
export const RECORD_CHANGE: ChangeOptions = { readsSchemaCache: true };

/**
 * Runs a change to one environment in one transaction holding that environment's
 * schema lock: exclusively for a schema change (rare and short: serialising them per
 * environment makes positions, menu appends and uniqueness checks race-free on every
 * engine, while other environments go on), shared for a record change (RECORD_CHANGE).
 * Under the lock, the environment must still exist and be
 * writable: a destroy, a fork in `fast` mode or maintenance mode may have begun since
 * the request resolved it. A destroy, rename or promote takes the lock exclusively, so it
 * waits for the change to finish. It passes through the environment's
 * write gate first (environment-write-gate.ts): an embedded fork of this environment
 * holds it closed while it copies.
 */
export async function inEnvironmentTransaction<T>(
  scope: Scope,
  fn: (tx: ScopedTransaction) => Promise<T>,
  options: ChangeOptions = {},
): Promise<T> {
  // A record change PostgreSQL picked as a deadlock's victim rolled back whole: it runs
  // again, once the change it waited on is done (src/db/README.md).
  for (let attempt = 1; ; attempt++) {
    try {
      return await changeOnce(scope, fn, options);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isConcurrencyConflict(error)) throw error;
    }
  }
}

const MAX_ATTEMPTS = 10;

async function changeOnce<T>(
  scope: Scope,
  fn: (tx: ScopedTransaction) => Promise<T>,
  options: ChangeOptions,
): Promise<T> {
  return throughWriteGate(scope.project, scope.environment.number, () =>
    scope.project.transaction().execute(async (trx) => {
      const current = await enterEnvironment(
        trx,
        scope.environment.number,
        options.readsSchemaCache === true,
      );
      if (!current || current.status === 'destroying') {
        throw new DomainError(
          'INVALID_ENVIRONMENT',
          `Environment "${scope.environment.id}" does not exist`,
        );
      }
      if (current.status !== 'ready') {
        throw new DomainError('ENVIRONMENT_NOT_READY', `Environment "${current.id}" is not ready`);
      }
      if (current.read_only_mode) {
        throw new DomainError(
          'ENVIRONMENT_IN_READ_ONLY_MODE',
          `Environment "${current.id}" is read-only while it is being forked`,
        );
      }
      if (current.is_primary && current.maintenance_mode) {
        throw new DomainError(
          'MAINTENANCE_MODE',
          'Maintenance mode is active: the primary environment is read-only',
        );
      }
      const locked: CachePlace = { pool: scope.project, version: current.schema_version };
      const gate = new FirstStatementGate();
      return fn(
        scopedTransaction(
          trx.withPlugin(gate),
          environmentRef(current),
          options.readsSchemaCache ? locked : null,
          () => (gate.open ? locked : null),
        ),
      );
    }),
  );
}
