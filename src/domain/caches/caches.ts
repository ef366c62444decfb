import type { DatabaseHandle, Db } from '../../db/client.ts';
import {
  type CachePlace,
  environmentNumberOf,
  isTransaction,
  type Scope,
  type ScopedTransaction,
} from '../../db/environment-scope.ts';
import { AuthCache, type VersionKind } from './auth-cache.ts';
import { deepFreeze } from './deep-freeze.ts';
import { type Loaded, RecordCache } from './record-cache.ts';
import { SchemaCache } from './schema-cache.ts';
import { SecondAsks } from './second-asks.ts';
import { type Stamped, StampedRows } from './stamped-rows.ts';

/** The channel the triggers of migration 0007_cache_versions notify. */
const CACHE_CHANNEL = 'fieldhouse_cache';
/** The channel record writes announce their environment on (migrations 0010, 0012). */
const RECORDS_CHANNEL = 'fieldhouse_records';

// Pages of record lists kept at once, all environments together, the bytes of their
// records' values in all, and the largest page kept (a larger one is served, not kept).
const LIST_PAGES = 200;
const LIST_BYTES = 4 * 1024 * 1024;
export const MAX_KEPT_PAGE_BYTES = 256 * 1024;

type Caches = {
  schema: SchemaCache;
  records: RecordCache<unknown>;
  lists: RecordCache<unknown>;
  listAsks: SecondAsks;
  stamped: StampedRows<unknown>;
  auth: AuthCache<unknown> | null;
};

// One set per database pool: a process serving two databases (tests) keeps them apart.
const byDatabase = new WeakMap<Db, Caches>();

function cachesOf(db: Db): Caches {
  let caches = byDatabase.get(db);
  if (!caches) {
    caches = {
      schema: new SchemaCache(),
      records: new RecordCache(),
      lists: new RecordCache(LIST_PAGES, LIST_BYTES, MAX_KEPT_PAGE_BYTES),
      listAsks: new SecondAsks(),
      stamped: new StampedRows(),
      auth: null,
    };
    byDatabase.set(db, caches);
  }
  return caches;
}

/** The schema cache of this database (versioned: valid on every engine). */
export function schemaCacheOf(db: Db): SchemaCache {
  return cachesOf(db).schema;
}

/** The record cache of this database (versioned: valid on every engine). */
export function recordCacheOf(db: Db): RecordCache<unknown> {
  return cachesOf(db).records;
}

/** The list page cache of this database (versioned as the record cache). */
export function listCacheOf(db: Db): RecordCache<unknown> {
  return cachesOf(db).lists;
}

/** The authentication cache, or null unless `invalidateOnNotify` runs for this database. */
export function authCacheOf<T>(db: Db): AuthCache<T> | null {
  return cachesOf(db).auth as AuthCache<T> | null;
}

/**
 * Embedded: caches what tokens authenticate to, and drops it whenever a trigger announces
 * a committed change to it, except that a schema change or a record write only moves its
 * environment's version there (and drops the schema documents or records kept of it at
 * older versions). The engine runs the callback before the committing statement's promise
 * resolves (test/integration/cache-coherence.test.ts checks it), so the request after a
 * change never finds it cached. Returns the function that stops listening.
 */
export async function invalidateOnNotify(
  db: Db,
  listen: NonNullable<DatabaseHandle['listenInProcess']>,
): Promise<() => Promise<void>> {
  const caches = cachesOf(db);
  const auth = new AuthCache<unknown>();
  /** A schema or records announcement: `env_<n>:<version>`, or the bare schema name. */
  const onMove =
    (kind: VersionKind, forget: (environmentNumber: number) => void) => (payload: string) => {
      const [schemaName = '', version] = payload.split(':');
      const number = environmentNumberOf(schemaName);
      if (number === undefined || version === undefined) auth.forget();
      else auth.versionMoved(kind, number, version);
      if (number !== undefined) forget(number);
    };
  // Access changes (tokens, roles, environments) name their table: everything goes.
  const stopAuth = await listen(
    CACHE_CHANNEL,
    onMove('schema', (number) => caches.schema.forget(number)),
  );
  const stopRecords = await listen(
    RECORDS_CHANNEL,
    onMove('records', (number) => {
      caches.records.forget(number);
      caches.lists.forget(number);
    }),
  );
  caches.auth = auth;
  return async () => {
    caches.auth = null;
    await stopAuth();
    await stopRecords();
  };
}

/**
 * A record row read by id in a request (never in a transaction, which may see its own
 * uncommitted writes): from the record cache at the records version the request read
 * with its token, else loaded (and kept unless large: `load` gives the bytes its values
 * take as stored, and the row's stamp, by which a row kept at an earlier version that is
 * still the same serves again, with what was made of it). Scopes without a records
 * version (tools, a request that did not read its token) read from the database.
 */
export async function cachedRecordRead<Row>(
  scope: Scope | ScopedTransaction,
  id: string,
  load: () => Promise<Loaded<Row> | undefined>,
): Promise<Row | undefined> {
  const records = isTransaction(scope) ? null : (scope.versions?.records ?? null);
  if (records === null) return (await load())?.row;
  const at = { environmentNumber: scope.environment.number, version: records };
  return (cachesOf(scope.project).records as RecordCache<Row>).read(at, id, load);
}

/**
 * A page of a record list in a request (never in a transaction): from the list cache at
 * the records version the request read with its token, else loaded, and kept when asked
 * before at that version and not large (`load` gives the bytes of the page's values as
 * stored). `key` names everything the page depends on besides the records and the
 * schema; the schema version joins it, as a page's views hold its models and fields. The
 * records version moves with every statement on `items`, and what a page shows of its
 * records' blocks changes only with their record's row (blocks are written with it), as
 * the record cache's views rely on too: it is the page's version as well.
 */
export async function cachedListRead<Page>(
  scope: Scope | ScopedTransaction,
  key: string,
  load: () => Promise<{ page: Page; bytes: number }>,
): Promise<Page> {
  const versions = isTransaction(scope) ? undefined : scope.versions;
  if (!versions || versions.records === null) return (await load()).page;
  const at = { environmentNumber: scope.environment.number, version: versions.records };
  const keyed = `${versions.schema}:${key}`;
  const caches = cachesOf(scope.project);
  const lists = caches.lists as RecordCache<Page>;
  const kept = lists.keptAt(at, keyed);
  if (kept !== undefined) return kept;
  const { page, bytes } = await load();
  // Kept once asked a second time at this version (second-asks.ts).
  if (!caches.listAsks.askedBefore(at, keyed)) return page;
  // The key is kept too (a query string: up to the request line's 16 KiB), so it counts.
  return lists.keep(at, keyed, { row: page, bytes: bytes + keyed.length });
}

/**
 * The rows of records whose stamps a request just read (a list's page statement), in that
 * order: each kept at exactly its stamp is used as kept (stamped-rows.ts), the others are
 * loaded in one call and kept when loaded at the stamp asked (`bytes`: their values' size,
 * as the stamp's statement read it). A record `load` does not give is left out. In a
 * transaction, which may see its own uncommitted rows, everything is loaded and nothing
 * kept.
 */
export async function rowsAtStamps<Row>(
  scope: Scope | ScopedTransaction,
  kind: string,
  wanted: readonly (Stamped & { bytes: number })[],
  load: (ids: string[]) => Promise<Map<string, { row: Row; stamp: string }>>,
): Promise<Row[]> {
  const found = async (ids: string[]) =>
    ids.length === 0 ? new Map<string, { row: Row; stamp: string }>() : await load(ids);
  if (isTransaction(scope)) {
    const loaded = await found(wanted.map((entry) => entry.id));
    return wanted.flatMap((entry) => loaded.get(entry.id)?.row ?? []);
  }
  const stamped = cachesOf(scope.project).stamped as StampedRows<Row>;
  const environment = scope.environment.number;
  const kept = wanted.map((entry) => stamped.get(environment, kind, entry));
  const loaded = await found(
    wanted.filter((_, index) => kept[index] === undefined).map((entry) => entry.id),
  );
  return wanted.flatMap((entry, index) => {
    const row = kept[index];
    if (row !== undefined) return [row];
    const read = loaded.get(entry.id);
    if (!read) return [];
    // Changed since its stamp was read: shown as read now, kept when next listed.
    if (read.stamp !== entry.stamp) return [read.row];
    return [stamped.keep(environment, kind, entry.stamp, entry.id, read.row, entry.bytes)];
  });
}

/**
 * Where a scope may read schema documents from the cache: a request's pool at the version
 * it read with its token, a transaction's at the version it read under the environment's
 * lock: throughout a record change, else only before its first statement
 * (ScopedTransaction). Scopes without a version (tools, bootstrap) read none.
 */
function cachePlace(scope: Scope | ScopedTransaction): CachePlace | null {
  if (isTransaction(scope)) return scope.schemaAt ?? scope.atEntry();
  return scope.versions === undefined
    ? null
    : { pool: scope.project, version: scope.versions.schema };
}

/** Whether reads in this scope may be served from the schema cache. */
export function readsSchemaCache(scope: Scope | ScopedTransaction): boolean {
  return cachePlace(scope) !== null;
}

/** A schema document: from the cache at the scope's version, else loaded (and kept). */
export function cachedSchemaRead<T>(
  scope: Scope | ScopedTransaction,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const place = cachePlace(scope);
  if (place === null) return load();
  const at = { environmentNumber: scope.environment.number, version: place.version };
  return schemaCacheOf(place.pool).read(at, key, load);
}

/** The views made of one kept record row, at the schema version they were made at. */
type Views = { schemaVersion: string; byKey: Map<string, unknown> };
// Keyed by the row itself: a kept row is one version of one record (by its stamp, which
// it keeps across writes to other records), so what is made of it goes when the row does.
// A view that holds more than the row (blocks inline, a tree record's children) is not
// made here.
const viewsOfRow = new WeakMap<object, Views>();

/**
 * The view `view` makes of a kept record row (the record cache's, or a list's stamped
 * rows: its values, model and fields): made once per row kept, schema version and `key`
 * (the options it is made with), then shared, deep-frozen, so what the edge presents of it
 * is made once too (the presenters keep theirs). A row not kept (too large, or read at an
 * older version), and any row in a transaction, is viewed afresh.
 */
export async function viewedOnce<T>(
  scope: Scope | ScopedTransaction,
  row: object,
  key: string,
  view: () => Promise<T>,
): Promise<T> {
  // The record cache freezes the rows it keeps, and only those.
  if (isTransaction(scope) || scope.versions === undefined || !Object.isFrozen(row)) {
    return view();
  }
  const schemaVersion = scope.versions.schema;
  let kept = viewsOfRow.get(row);
  if (kept?.schemaVersion !== schemaVersion) {
    kept = { schemaVersion, byKey: new Map() };
    viewsOfRow.set(row, kept);
  }
  const found = kept.byKey.get(key);
  if (found !== undefined) return found as T;
  const made = deepFreeze(await view());
  kept.byKey.set(key, made);
  return made;
}
