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
  type EnvironmentRef,
  environmentRef,
  type Scope,
  type ScopedTransaction,
  scopedTransaction,
} from './environment-scope.ts';
import { throughWriteGate } from './environment-write-gate.ts';
import { executePrepared } from './query/prepared.ts';
import type { EnvironmentRow } from './schema.ts';
import { isConcurrencyConflict, type Trx } from './transaction.ts';

// A change to one environment: one transaction entered under the environment's lock, with
// its checks, through the write gate; how the pieces fit is in this folder's README.

/** What a change reads of its environment once it holds the lock (enter_environment). */
type EnvironmentCheck = Pick<
  EnvironmentRow,
  'id' | 'number' | 'schema_name' | 'is_primary' | 'status' | 'read_only_mode' | 'schema_version'
> & { maintenance_mode: boolean };

/** The environment a change runs in, and the schema version its lock holds in place. */
type Entry = Readonly<{ environment: EnvironmentRef; schemaVersion: string }>;

/**
 * Takes the environment's lock, then reads its row with its schema version and the site's
 * maintenance mode: one statement, a function whose reads follow the lock (project
 * migrations 0008, 0009 and 0015). A schema change takes the lock exclusively and touches
 * the row (`enter_environment`); a record change takes it shared and moves its backend's
 * records-version slot instead (`enter_records`): record writes do not queue on one lock or
 * one row. Refuses a change the row forbids.
 */
async function enter(trx: Trx, scope: Scope, records: boolean): Promise<Entry> {
  const number = scope.environment.number;
  const { rows } = await (records
    ? sql<EnvironmentCheck>`
        SELECT * FROM enter_records(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(number)})
      `
    : sql<EnvironmentCheck>`
        SELECT * FROM enter_environment(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(number)})
      `
  ).execute(trx);
  const current = rows[0];
  if (!current || current.status === 'destroying') throw refusal('gone', scope.environment.id);
  const refused = refusalOf(current);
  if (refused) throw refusal(refused, current.id);
  return { environment: environmentRef(current), schemaVersion: current.schema_version };
}

type Refusal = 'gone' | 'not ready' | 'read-only' | 'maintenance';

function refusalOf(current: EnvironmentCheck): Refusal | null {
  if (current.status !== 'ready') return 'not ready';
  if (current.read_only_mode) return 'read-only';
  if (current.is_primary && current.maintenance_mode) return 'maintenance';
  return null;
}

function refusal(refused: Refusal, environmentId: string): DomainError {
  switch (refused) {
    case 'gone':
      return new DomainError(
        'INVALID_ENVIRONMENT',
        `Environment "${environmentId}" does not exist`,
      );
    case 'not ready':
      return new DomainError(
        'ENVIRONMENT_NOT_READY',
        `Environment "${environmentId}" is not ready`,
      );
    case 'read-only':
      return new DomainError(
        'ENVIRONMENT_IN_READ_ONLY_MODE',
        `Environment "${environmentId}" is read-only while it is being forked`,
      );
    case 'maintenance':
      return new DomainError(
        'MAINTENANCE_MODE',
        'Maintenance mode is active: the primary environment is read-only',
      );
  }
}

/**
 * The entry when the change's request read the environment with its token: the change
 * assumes it unchanged, so nothing waits for the entry's answer. `enter_records_assuming`
 * or `enter_environment_assuming` (project migration 0018) takes the lock and checks the
 * row and the assumption itself, raising when the change may not go on (ENTRY_SQLSTATES),
 * and is held: it goes with the change's first statement, in its round trip, before it.
 */
async function holdEntry(
  trx: Trx,
  scope: Scope,
  schemaVersion: string,
  records: boolean,
): Promise<Entry> {
  const { id, number, isPrimary } = scope.environment;
  const entering = sql.raw(records ? 'enter_records_assuming' : 'enter_environment_assuming');
  const statement = sql`SELECT ${entering}(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${number}, ${id},
    ${isPrimary}, ${schemaVersion}::bigint)`;
  await executePrepared(trx, { compile: () => statement.compile(trx) }, { held: true });
  return { environment: scope.environment, schemaVersion };
}

// What each SQLSTATE the assuming entries raise means (project migration 0018); FH005:
// the environment is not as the request read it, and the change runs from the plain entry.
const ENTRY_SQLSTATES: ReadonlyMap<string, Refusal> = new Map([
  ['FH001', 'gone'],
  ['FH002', 'not ready'],
  ['FH003', 'read-only'],
  ['FH004', 'maintenance'],
]);
const MOVED_SINCE_REQUEST = 'FH005';

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
      return await changeOnce(scope, fn, options, assumed);
    } catch (error) {
      const code = (error as { code?: string })?.code ?? '';
      const refused = ENTRY_SQLSTATES.get(code);
      if (refused) throw refusal(refused, scope.environment.id);
      if (code === MOVED_SINCE_REQUEST && assumed !== null) assumed = null;
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
  return throughWriteGate(scope.project, scope.environment.number, () =>
    scope.project.transaction().execute(async (trx) => {
      const entry =
        assumed === null
          ? await enter(trx, scope, records)
          : await holdEntry(trx, scope, assumed, records);
      const locked: CachePlace = { pool: scope.project, version: entry.schemaVersion };
      const gate = new FirstStatementGate();
      return fn(
        scopedTransaction(trx.withPlugin(gate), entry.environment, records ? locked : null, () =>
          gate.open ? locked : null,
        ),
      );
    }),
  );
}
