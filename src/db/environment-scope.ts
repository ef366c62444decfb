import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Db } from './client.ts';
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
  access?: AccessAssumption;
}>;

/**
 * Where an environment's schema and records stood when a request read its token. `records`
 * is null when the request took an earlier answer (AccessAssumption): no record is then
 * served from the caches, whose keys move with every record write.
 */
export type EnvironmentVersions = Readonly<{ schema: string; records: string | null }>;

/**
 * The token answer a request took without reading it (domain/auth/assumed-access.ts): the
 * access version read with it, which the request's change checks with its entry, and
 * whether a change holding that check has committed (`confirmed`).
 */
export type AccessAssumption = { readonly version: string; confirmed: boolean };

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
  access?: AccessAssumption,
): Scope {
  const handle = scopedHandle(db, environment.schemaName);
  // One literal each: every request makes one, so no spread of a first object.
  if (access !== undefined) return { environment, db: handle, project: db, versions, access };
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
