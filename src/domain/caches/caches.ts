import { sql } from 'kysely';
import type { DatabaseHandle, Db } from '../../db/client.ts';
import { RECORD_ANNOUNCEMENTS_SETTING } from '../../db/embedded.ts';
import {
  type CachePlace,
  environmentNumberOf,
  isTransaction,
  type Scope,
  type ScopedTransaction,
} from '../../db/environment-scope.ts';
import { AuthCache } from './auth-cache.ts';
import { MAX_KEPT_RECORD_BYTES, RecordCache } from './record-cache.ts';
import { SchemaCache } from './schema-cache.ts';

/** The channel the triggers of migration 0007_cache_versions notify. */
const CHANNEL = 'fieldhouse_cache';
/** The channel record writes announce their environment on (migration 0010). */
const RECORDS_CHANNEL = 'fieldhouse_records';

type Caches = {
  schema: SchemaCache;
  auth: AuthCache<unknown> | null;
  records: RecordCache<unknown> | null;
};

// One set per database pool: a process serving two databases (tests) keeps them apart.
const byDatabase = new WeakMap<Db, Caches>();

function cachesOf(db: Db): Caches {
  let caches = byDatabase.get(db);
  if (!caches) {
    caches = { schema: new SchemaCache(), auth: null, records: null };
    byDatabase.set(db, caches);
  }
  return caches;
}

/** The schema cache of this database (versioned: valid on every engine). */
export function schemaCacheOf(db: Db): SchemaCache {
  return cachesOf(db).schema;
}

/** The authentication cache, or null unless `invalidateOnNotify` runs for this database. */
export function authCacheOf<T>(db: Db): AuthCache<T> | null {
  return cachesOf(db).auth as AuthCache<T> | null;
}

/** The record cache, or null where record writes are not announced (PostgreSQL). */
export function recordCacheOf(db: Db): RecordCache<unknown> | null {
  return cachesOf(db).records;
}

/**
 * Embedded: caches what tokens authenticate to and records read by id, and drops them
 * (and the schema documents of the environment named) whenever a trigger announces a
 * committed change; a schema change only moves its environment's version in what tokens
 * authenticate to. The engine runs the callback before the committing statement's
 * promise resolves (test/integration/cache-coherence.test.ts checks it), so the request
 * after a change never finds it cached. Returns the function that stops listening.
 */
export async function invalidateOnNotify(
  db: Db,
  listen: NonNullable<DatabaseHandle['listenInProcess']>,
): Promise<() => Promise<void>> {
  const caches = cachesOf(db);
  const auth = new AuthCache<unknown>();
  const stopAuth = await listen(CHANNEL, (payload) => {
    // A schema change names its environment's schema and the version it moved to
    // (migration 0011); an access change, its table.
    const [schemaName = '', version] = payload.split(':');
    const number = environmentNumberOf(schemaName);
    if (number === undefined || version === undefined) auth.forget();
    else auth.schemaMoved(number, version);
    if (number !== undefined) caches.schema.forget(number);
  });
  caches.auth = auth;
  // Records are kept only if record writes announce themselves in this database.
  const records = (await recordWritesAnnounced(db)) ? new RecordCache<unknown>() : null;
  const stopRecords = records
    ? await listen(RECORDS_CHANNEL, (payload) => {
        const number = environmentNumberOf(payload);
        if (number !== undefined) records.forget(number);
      })
    : async () => {};
  caches.records = records;
  return async () => {
    caches.auth = null;
    caches.records = null;
    await stopAuth();
    await stopRecords();
  };
}

async function recordWritesAnnounced(db: Db): Promise<boolean> {
  const { rows } = await sql<{ on: boolean }>`
    SELECT current_setting(${RECORD_ANNOUNCEMENTS_SETTING}, true) = 'on' AS on
  `.execute(db);
  return rows[0]?.on === true;
}

/**
 * A record row read by id in a request (never in a transaction, which may see its own
 * uncommitted writes): kept where record writes are announced (embedded), else loaded.
 * `load` gives the row and the bytes its values take as stored; a large one is not kept.
 */
export async function cachedRecordRead<Row>(
  scope: Scope | ScopedTransaction,
  id: string,
  load: () => Promise<{ row: Row; bytes: number } | undefined>,
): Promise<Row | undefined> {
  const records = isTransaction(scope)
    ? null
    : (cachesOf(scope.project).records as RecordCache<Row> | null);
  if (!records) return (await load())?.row;
  const environmentNumber = scope.environment.number;
  const kept = records.get(environmentNumber, id);
  if (kept !== undefined) return kept;
  const generation = records.begin(environmentNumber);
  const loaded = await load();
  if (!loaded) return undefined;
  if (loaded.bytes > MAX_KEPT_RECORD_BYTES) return loaded.row;
  return records.keep(environmentNumber, id, loaded.row, generation);
}

/**
 * Where a scope may read schema documents from the cache: a request's pool at the version
 * it read with its token, a transaction's at the version it read under the environment's
 * lock: throughout a record change, else only before its first statement
 * (ScopedTransaction). Scopes without a version (tools, bootstrap) read none.
 */
function cachePlace(scope: Scope | ScopedTransaction): CachePlace | null {
  if (isTransaction(scope)) return scope.schemaAt ?? scope.atEntry();
  return scope.schemaVersion === undefined
    ? null
    : { pool: scope.project, version: scope.schemaVersion };
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
