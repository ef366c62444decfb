import { type QueryExecutorProvider, type RawBuilder, sql } from 'kysely';
import { engineOf } from '../../../db/engine/engine-of.ts';
import { qualifiedTable, type Scope } from '../../../db/environment-scope.ts';
import { VALUE_INDEX_BUILD_LOCK_KEY } from '../../../db/lock-keys.ts';
import { INDEXED_TABLE, type ValueIndex, valueIndexName } from './value-index-names.ts';

/**
 * Building one value index, and recovering from a build that did not finish. On
 * PostgreSQL a build is `CREATE INDEX CONCURRENTLY`: record writes go on while it reads
 * the model's records, but a build that fails or is interrupted leaves an INVALID index
 * behind, which is dropped before a new build. The embedded engine has one connection
 * (nothing runs beside a build anyway): it builds in one statement, which leaves nothing
 * behind when it fails. README.md beside: "Value indexes".
 */

/** What the catalog holds under an index's name; `building`: a build is running now. */
export type IndexState = 'missing' | 'valid' | 'invalid' | 'building';

/** `gave way`: not now, a later list tries again; `unbuildable`: a value cannot be indexed. */
export type BuildOutcome = 'built' | 'gave way' | 'unbuildable';

// Any handle: the scope's pool, or the connection a build holds.
type Queryable = QueryExecutorProvider;

// A build (and the drop of an invalid index) waits this long at most for the locks and
// the transactions it must wait for; then it gives up and the list runs without it.
const BUILD_LOCK_TIMEOUT = '2s';
/** duplicate_table / unique_violation: a concurrent request built the same index first. */
const BUILT_BY_ANOTHER = new Set(['42P07', '23505']);
/** lock_not_available: the build gave way. */
const GAVE_WAY = '55P03';
/**
 * deadlock_detected: a concurrent build waits for older snapshots, so it can deadlock with
 * a statement that waits for it (the build lock keeps two builds from meeting).
 */
const DEADLOCK = '40P01';
/** Class 22, data exception: a stored value the expression cannot take (a failed cast). */
const DATA_EXCEPTION_CLASS = '22';

/** `{"a","b"}`: a text[] literal, each element quoted (field ids and locales are plain). */
function pathLiteral(index: ValueIndex): string {
  const parts = index.locale === null ? [index.fieldId] : [index.fieldId, index.locale];
  return `{${parts.map((part) => `"${part.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * The indexed expression, written exactly as the statements that can use it compare it
 * (filter-operators.ts, list.ts): the planner matches expressions, not meanings. Literals,
 * not parameters: DDL takes none, and the planner matches the statement's constants
 * (parameters are bound before planning).
 */
function indexedExpression(index: ValueIndex): RawBuilder<unknown> {
  const values = sql.ref(index.column);
  const path = sql`${sql.lit(pathLiteral(index))}::text[]`;
  switch (index.kind) {
    case 'text':
      return sql`(${values} #>> ${path})`;
    case 'json':
      return sql`(${values} #> ${path})`;
    case 'numeric':
      return sql`((${values} #>> ${path})::numeric)`;
    case 'date':
      return sql`((${values} #>> ${path}) COLLATE "C")`;
  }
}

/** The catalog's state of the index named `name` in `schema` (one statement). */
export async function indexState(db: Queryable, schema: string, name: string): Promise<IndexState> {
  const found = await sql<{ valid: boolean; building: boolean }>`
    SELECT i.indisvalid AS valid, EXISTS (
      SELECT FROM pg_stat_progress_create_index p WHERE p.index_relid = i.indexrelid
    ) AS building
    FROM pg_index i WHERE i.indexrelid = to_regclass(${`"${schema}"."${name}"`})
  `.execute(db);
  const row = found.rows[0];
  if (!row) return 'missing';
  if (row.valid) return 'valid';
  return row.building ? 'building' : 'invalid';
}

const codeOf = (error: unknown) => (error as { code?: string }).code ?? '';

/**
 * Drops the index if the catalog holds it invalid and no build is running it (what a
 * failed or interrupted concurrent build leaves). False when the drop gave way to locks.
 */
async function dropAbandoned(
  db: Queryable,
  schema: string,
  name: string,
  concurrently: boolean,
): Promise<boolean> {
  if ((await indexState(db, schema, name)) !== 'invalid') return true;
  const index = sql.table(`${schema}.${name}`);
  try {
    await (concurrently
      ? sql`DROP INDEX CONCURRENTLY IF EXISTS ${index}`
      : sql`DROP INDEX IF EXISTS ${index}`
    ).execute(db);
    return true;
  } catch (error) {
    if (codeOf(error) === GAVE_WAY) return false;
    throw error;
  }
}

async function create(db: Queryable, scope: Scope, index: ValueIndex, concurrently: boolean) {
  const table = qualifiedTable(scope.environment.schemaName, INDEXED_TABLE);
  const how = concurrently ? sql`CONCURRENTLY` : sql``;
  await sql`CREATE INDEX ${how} IF NOT EXISTS ${sql.id(valueIndexName(index))}
    ON ${table} (${indexedExpression(index)})
    WHERE item_type_id = ${sql.lit(index.modelId)}`.execute(db);
}

/**
 * Builds the index (after dropping an abandoned invalid one of its name), on a connection
 * of its own, outside any transaction. On PostgreSQL, one build at a time in the database
 * (VALUE_INDEX_BUILD_LOCK_KEY): a build that finds another running gives way at once. A
 * concurrent build that ended without a valid index (it failed, or it found the index of
 * another request's build, which may have failed) cleans up what it can and gives way.
 */
export async function buildValueIndex(scope: Scope, index: ValueIndex): Promise<BuildOutcome> {
  const concurrently = engineOf(scope.project) === 'postgres';
  return scope.project.connection().execute(async (connection) => {
    if (!concurrently)
      return withLockTimeout(connection, () => build(connection, scope, index, false));
    const locked = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_lock(${sql.lit(VALUE_INDEX_BUILD_LOCK_KEY)}) AS locked
    `.execute(connection);
    if (locked.rows[0]?.locked !== true) return 'gave way';
    try {
      return await withLockTimeout(connection, () => build(connection, scope, index, true));
    } finally {
      await sql`SELECT pg_advisory_unlock(${sql.lit(VALUE_INDEX_BUILD_LOCK_KEY)})`.execute(
        connection,
      );
    }
  });
}

async function withLockTimeout<T>(db: Queryable, work: () => Promise<T>): Promise<T> {
  await sql`SET lock_timeout = ${sql.lit(BUILD_LOCK_TIMEOUT)}`.execute(db);
  try {
    return await work();
  } finally {
    await sql`RESET lock_timeout`.execute(db);
  }
}

async function build(
  db: Queryable,
  scope: Scope,
  index: ValueIndex,
  concurrently: boolean,
): Promise<BuildOutcome> {
  const schema = scope.environment.schemaName;
  const name = valueIndexName(index);
  try {
    if (!(await dropAbandoned(db, schema, name, concurrently))) return 'gave way';
    await create(db, scope, index, concurrently);
    if (!concurrently) return 'built';
    return (await indexState(db, schema, name)) === 'valid' ? 'built' : 'gave way';
  } catch (error) {
    const code = codeOf(error);
    if (concurrently) await dropAbandoned(db, schema, name, concurrently);
    if (BUILT_BY_ANOTHER.has(code) || code === GAVE_WAY || code === DEADLOCK) return 'gave way';
    if (code.startsWith(DATA_EXCEPTION_CLASS)) return 'unbuildable';
    throw error;
  }
}
