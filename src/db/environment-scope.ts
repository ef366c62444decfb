import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import type { Db } from './client.ts';
import { throughWriteGate } from './environment-write-gate.ts';
import { executePrepared } from './prepared.ts';
import type { EnvironmentDatabase, EnvironmentRow } from './schema.ts';
import type { Trx } from './transaction.ts';

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
  'items',
  'item_versions',
  'blocks',
  'scheduled_actions',
];

/**
 * A request's view of the database: its environment's tables and the project's, and the
 * environment's schema version read with the request's token (absent outside requests):
 * what schema documents may be served from the cache at (domain/schema-cache).
 */
export type Scope = Readonly<{
  environment: EnvironmentRef;
  db: EnvQueryable;
  project: Db;
  schemaVersion?: string;
}>;

/** Both handles of one transaction, on the same connection. */
export type ScopedTransaction = Readonly<{
  environment: EnvironmentRef;
  db: EnvTrx;
  project: Trx;
}>;

export function schemaNameOf(environmentNumber: number): string {
  return `env_${environmentNumber}`;
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
    bySchema.set(schemaName, handle);
  }
  return handle;
}

export function scopeFor(db: Db, environment: EnvironmentRef, schemaVersion?: string): Scope {
  const scope = { environment, db: scopedHandle(db, environment.schemaName), project: db };
  return schemaVersion === undefined ? scope : { ...scope, schemaVersion };
}

/** The scoped handle for an open project transaction (same connection). */
export function scopedTransaction(trx: Trx, environment: EnvironmentRef): ScopedTransaction {
  const db = trx.withSchema(environment.schemaName) as unknown as EnvTrx;
  return { environment, db, project: trx };
}

// Arbitrary constant naming environment schema locks: pg_advisory_xact_lock(KEY, number).
export const ENVIRONMENT_LOCK_KEY = 7_246_001;

/** Takes the environment's schema lock for the rest of the transaction. */
export async function lockEnvironment(trx: Trx, environmentNumber: number): Promise<void> {
  // Literal keys leave no parameter, so the lock takes one simple-protocol message.
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(environmentNumber)})`.execute(
    trx,
  );
}

/**
 * Takes the environment's lock for the connection's session, past the end of the
 * transaction: a PostgreSQL fork takes it in the transaction that registers the new
 * environment and holds it until the copy is ready, so a process starting at any moment
 * in between (recovery.ts) finds the fork's lock taken. Released by `releaseEnvironmentLock`
 * on the same connection, or when the connection ends (the process died).
 */
export async function holdEnvironmentLock(trx: Trx, environmentNumber: number): Promise<void> {
  await sql`SELECT pg_advisory_lock(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(environmentNumber)})`.execute(
    trx,
  );
}

export async function releaseEnvironmentLock(db: Db, environmentNumber: number): Promise<void> {
  await sql`SELECT pg_advisory_unlock(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(environmentNumber)})`.execute(
    db,
  );
}

/**
 * Runs a change to one environment in one transaction holding that environment's
 * schema lock: schema writes are rare and short, and serialising them per environment
 * makes positions, menu appends and uniqueness checks race-free on every engine, while
 * other environments go on. Under the lock, the environment must still exist and be
 * writable: a destroy, a fork in `fast` mode or maintenance mode may have begun since
 * the request resolved it. The environment row stays locked until commit, so a destroy,
 * rename or promote waits for the change to finish. It passes through the environment's
 * write gate first (environment-write-gate.ts): an embedded fork of this environment
 * holds it closed while it copies.
 */
export async function inEnvironmentTransaction<T>(
  scope: Scope,
  fn: (tx: ScopedTransaction) => Promise<T>,
): Promise<T> {
  return throughWriteGate(scope.project, scope.environment.number, () =>
    scope.project.transaction().execute(async (trx) => {
      await lockEnvironment(trx, scope.environment.number);
      const touch = trx
        .updateTable('environments')
        .set({ last_data_change_at: sql<Date>`now()` })
        .where('number', '=', sql.lit(scope.environment.number))
        .returning((eb) => [
          'id',
          'number',
          'schema_name',
          'is_primary',
          'status',
          'read_only_mode',
          eb.selectFrom('site').select('maintenance_mode').as('maintenance_mode'),
        ]);
      const [current] = await executePrepared(trx, touch);
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
      return fn(scopedTransaction(trx, environmentRef(current)));
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
