import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import {
  accessMovedSinceRequest,
  enter,
  entryRefusal,
  holdAccessCheck,
  holdEntry,
  movedSinceRequest,
} from './environment-entry.ts';
import {
  type CachePlace,
  type Scope,
  type ScopedTransaction,
  scopedTransaction,
} from './environment-scope.ts';
import { throughWriteGate } from './environment-write-gate.ts';
import { holdSchemaVersionRead } from './schema-version-left.ts';
import { isConcurrencyConflict } from './transaction.ts';

// A change to one environment: one transaction entered under the environment's lock, with
// its checks (environment-entry.ts), through the write gate; how the pieces fit is in this
// folder's README.

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
  // The schema version the request read: the change assumes it (holdEntry), until the
  // entry says the environment moved.
  let assumed = scope.versions?.schema ?? null;
  // A record change PostgreSQL picked as a deadlock's victim rolled back whole: it runs
  // again, once the change it waited on is done (src/db/README.md).
  for (let attempt = 1; ; attempt++) {
    try {
      const done = await changeOnce(scope, fn, options, assumed);
      if (scope.access) scope.access.confirmed = true;
      return done;
    } catch (error) {
      const refused = entryRefusal(error, scope.environment.id);
      if (refused) throw refused;
      // A request that took its token answer without reading it runs again from a token
      // read afresh (http/plugins/assumed-token.ts), not from the plain entry.
      if (scope.access && (movedSinceRequest(error) || accessMovedSinceRequest(error))) {
        throw error;
      }
      if (movedSinceRequest(error) && assumed !== null) assumed = null;
      else if (attempt >= MAX_ATTEMPTS || !isConcurrencyConflict(error)) throw error;
    }
  }
}

const MAX_ATTEMPTS = 10;

async function changeOnce<T>(
  scope: Scope,
  fn: (tx: ScopedTransaction) => Promise<T>,
  options: ChangeOptions,
  assumed: string | null,
): Promise<T> {
  const records = options.readsSchemaCache === true;
  let tellVersionLeft = () => {};
  const done = await throughWriteGate(scope.project, scope.environment.number, () =>
    scope.project.transaction().execute(async (trx) => {
      const entry =
        assumed === null
          ? await enter(trx, scope, records)
          : await holdEntry(trx, scope, assumed, records);
      if (scope.access) await holdAccessCheck(trx, scope.access);
      const locked: CachePlace = { pool: scope.project, version: entry.schemaVersion };
      const gate = new FirstStatementGate();
      const result = await fn(
        scopedTransaction(trx.withPlugin(gate), entry.environment, records ? locked : null, () =>
          gate.open ? locked : null,
        ),
      );
      // A schema change moves the schema version: what keeps versions read earlier hears
      // the one it left (schema-version-left.ts).
      if (!records) {
        tellVersionLeft = await holdSchemaVersionRead(scope.project, trx, entry.environment.number);
      }
      return result;
    }),
  );
  tellVersionLeft();
  return done;
}
