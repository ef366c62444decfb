import {
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RawBuilder,
  type RootOperationNode,
  sql,
  type Transaction,
  type UnknownRow,
} from 'kysely';
import { DomainError } from '../domain/errors.ts';
import type { Db } from './client.ts';
import { throughWriteGate } from './environment-write-gate.ts';
import type { EnvironmentDatabase, EnvironmentRow } from './schema.ts';
import { isConcurrencyConflict, type Trx } from './transaction.ts';

/**
 * The one place environment-scoped tables are reached from. Every environment keeps
 * its tables in a PostgreSQL schema of its own (`env_<number>`); a scoped handle is
 * `Kysely.withSchema(schema)`, which qualifies every table Kysely renders (joins and
 * subqueries included), so a query cannot reach another environment's rows or the
 * project's tables. Names are qualified in the statement text, never through
 * `search_path`, so prepared statements (prepared.ts) stay valid: each schema's
 * statement has its own text and its own name.
 */

/** What a request's scope knows about its environment. `number` never changes. */
export type EnvironmentRef = Readonly<{
  id: string;
  number: number;
  schemaName: string;
  isPrimary: boolean;
}>;

/** A scoped handle: the pool or an open transaction, on one environment's tables. */
export type EnvQueryable = Kysely<EnvironmentDatabase>;
/** A scoped handle inside a transaction. */
export type EnvTrx = Transaction<EnvironmentDatabase>;

export type EnvironmentTableName = keyof EnvironmentDatabase;

/** Every environment table, in an order where a table comes after those it references. */
export const ENVIRONMENT_TABLES: readonly EnvironmentTableName[] = [
  'site_settings',
  'workflows',
  'item_types',
  'fieldsets',
  'fields',
  'item_type_filters',
  'menu_items',
  'schema_menu_items',
  'plugins',
  'upload_filters',
  'upload_collections',
  'upload_tags',
  'uploads',
  'items',
  'item_versions',
  'item_version_parts',
  'blocks',
  'scheduled_actions',
];

/**
 * A request's view of the database: its environment's tables and the project's, and the
 * environment's schema and records versions read with the request's token (absent outside
 * requests): what schema documents and records may be served from the caches at
 * (domain/caches).
 */
export type Scope = Readonly<{
  environment: EnvironmentRef;
  db: EnvQueryable;
  project: Db;
  versions?: EnvironmentVersions;
}>;

/** Where an environment's schema and records stood when a request read its token. */
export type EnvironmentVersions = Readonly<{ schema: string; records: string }>;

/** A pool's caches (domain/caches) at a schema version read under the environment's lock. */
export type CachePlace = Readonly<{ pool: Db; version: string }>;

/**
 * Both handles of one transaction, on the same connection, and where the transaction may
 * take documents from the caches (domain/caches), kept per pool: those of the pool it runs
 * on, at the schema version `inEnvironmentTransaction` read under the environment's lock.
 *
 * - `schemaAt`: schema documents, for the whole transaction. Null unless the change
 *   declared itself a record change (RECORD_CHANGE).
 * - `atEntry()`: schema documents, for any change, until the transaction sends
 *   its first statement after entering; null from then on. Under the lock no other change
 *   commits, so what the caches mirror at that version is exactly what the database holds
 *   until the transaction itself writes. The first statement closes it, read or write, as
 *   it goes out (FirstStatementGate): a read after a write cannot reach the caches,
 *   whoever calls it and however deep, with no flag for a caller to forget.
 */
export type ScopedTransaction = Readonly<{
  environment: EnvironmentRef;
  db: EnvTrx;
  project: Trx;
  schemaAt: CachePlace | null;
  atEntry: () => CachePlace | null;
}>;

/** Whether a scope is a transaction's (only ScopedTransaction carries `schemaAt`). */
export function isTransaction(scope: Scope | ScopedTransaction): scope is ScopedTransaction {
  return 'schemaAt' in scope;
}

export function schemaNameOf(environmentNumber: number): string {
  return `env_${environmentNumber}`;
}

/** The environment number a schema name stands for (schemaNameOf's inverse), if any. */
export function environmentNumberOf(schemaName: string): number | undefined {
  const number = /^env_(\d+)$/.exec(schemaName)?.[1];
  return number === undefined ? undefined : Number(number);
}

export function environmentRef(
  row: Pick<EnvironmentRow, 'id' | 'number' | 'schema_name' | 'is_primary'>,
): EnvironmentRef {
  return { id: row.id, number: row.number, schemaName: row.schema_name, isPrimary: row.is_primary };
}

/**
 * `<schema>.<table>` for raw SQL (DDL, fork copies): the only way raw text may name an
 * environment table. `sql.table` quotes each part as an identifier.
 */
export function qualifiedTable(schemaName: string, table: string): RawBuilder<unknown> {
  return sql.table(`${schemaName}.${table}`);
}

// The schema each scoped handle reaches: statements of fixed shape are compiled once per
// schema (prepared.ts). Every scoped handle is made below, and registered here.
const schemaOfHandle = new WeakMap<object, string>();

/** The environment schema a scoped handle reaches; undefined for a project handle. */
export function schemaOf(handle: object): string | undefined {
  return schemaOfHandle.get(handle);
}

// Scoped handles are cheap but not free (a plugin and an executor per instance): one per
// schema and pool. Entries of destroyed environments are few and harmless.
const handles = new WeakMap<Db, Map<string, EnvQueryable>>();

function scopedHandle(db: Db, schemaName: string): EnvQueryable {
  let bySchema = handles.get(db);
  if (!bySchema) {
    bySchema = new Map();
    handles.set(db, bySchema);
  }
  let handle = bySchema.get(schemaName);
  if (!handle) {
    handle = (db as unknown as Kysely<EnvironmentDatabase>).withSchema(schemaName);
    schemaOfHandle.set(handle, schemaName);
    bySchema.set(schemaName, handle);
  }
  return handle;
}

export function scopeFor(
  db: Db,
  environment: EnvironmentRef,
  versions?: EnvironmentVersions,
): Scope {
  const handle = scopedHandle(db, environment.schemaName);
  // One literal each: every request makes one, so no spread of a first object.
  return versions === undefined
    ? { environment, db: handle, project: db }
    : { environment, db: handle, project: db, versions };
}

/** The scoped handle for an open project transaction (same connection). */
export function scopedTransaction(
  trx: Trx,
  environment: EnvironmentRef,
  schemaAt: CachePlace | null = null,
  atEntry: () => CachePlace | null = () => null,
): ScopedTransaction {
  const db = trx.withSchema(environment.schemaName) as unknown as EnvTrx;
  schemaOfHandle.set(db, environment.schemaName);
  return { environment, db, project: trx, schemaAt, atEntry };
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

// Arbitrary constant naming environment schema locks: pg_advisory_xact_lock(KEY, number).
export const ENVIRONMENT_LOCK_KEY = 7_246_001;

type LockFunction = 'pg_advisory_xact_lock' | 'pg_advisory_lock' | 'pg_advisory_unlock';

async function callEnvironmentLock(
  db: Db,
  fn: LockFunction,
  environmentNumber: number,
): Promise<void> {
  // Literal keys leave no parameter, so the call takes one simple-protocol message.
  await sql`SELECT ${sql.raw(fn)}(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(environmentNumber)})`.execute(
    db,
  );
}

/** Takes the environment's schema lock for the rest of the transaction. */
export async function lockEnvironment(trx: Trx, environmentNumber: number): Promise<void> {
  await callEnvironmentLock(trx, 'pg_advisory_xact_lock', environmentNumber);
}

/**
 * Takes the environment's lock for the connection's session, past the end of the
 * transaction: a PostgreSQL fork takes it in the transaction that registers the new
 * environment and holds it until the copy is ready, so a process starting at any moment
 * in between (recovery.ts) finds the fork's lock taken. Released by `releaseEnvironmentLock`
 * on the same connection, or when the connection ends (the process died).
 */
export async function holdEnvironmentLock(trx: Trx, environmentNumber: number): Promise<void> {
  await callEnvironmentLock(trx, 'pg_advisory_lock', environmentNumber);
}

export async function releaseEnvironmentLock(db: Db, environmentNumber: number): Promise<void> {
  await callEnvironmentLock(db, 'pg_advisory_unlock', environmentNumber);
}

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
 * Inside a record change, makes every other record change naming one of `keys` wait for
 * this one to commit: what record writes must exclude among themselves (a unique value, a
 * client-chosen id, a model's singleton or positions). The keys are hashed to advisory
 * locks of the single-key space (the environment locks use the two-key one), taken in
 * sorted order so two changes naming the same keys cannot deadlock on them; a collision
 * of hashes only makes a change wait. No-op for an empty list.
 */
export async function excludeRecordKeys(db: EnvQueryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const schemaName = schemaOf(db);
  if (schemaName === undefined) throw new Error('excludeRecordKeys needs a scoped handle');
  const named = [...new Set(keys.map((key) => `${schemaName}:${key}`))].sort();
  await sql`
    SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest(${named}::text[]) AS key
  `.execute(db);
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

/** The scope of the environment with this id, or of the primary: for tools and tests. */
export async function loadScope(db: Db, environmentId?: string): Promise<Scope> {
  const query = db.selectFrom('environments').select(['id', 'number', 'schema_name', 'is_primary']);
  const row = await (environmentId === undefined
    ? query.where('is_primary', '=', true)
    : query.where('id', '=', environmentId)
  ).executeTakeFirst();
  if (!row) throw new Error(`no environment ${environmentId ?? '(primary)'}`);
  return scopeFor(db, environmentRef(row));
}

/**
 * A read that began before a destroy committed and reached the environment's tables
 * after the schema was dropped: the environment is gone, as the request will be told.
 */
export function isVanishedEnvironmentError(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (e?.code === '42P01' || e?.code === '3F000') && /"env_\d+(\.|")/.test(e.message ?? '');
}
