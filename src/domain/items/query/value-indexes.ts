import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import {
  qualifiedTable,
  type Scope,
  type ScopedTransaction,
} from '../../../db/environment-scope.ts';
import { cachedSchemaRead } from '../../caches/caches.ts';
import { MAX_VALUE_INDEXES } from '../../limits.ts';

/**
 * Value indexes: an expression index on one field's value (in one locale, current or
 * published) over the records of its model, made the first time a list filters or sorts
 * by that value, and dropped by the schema changes that make it useless. They only speed
 * statements up: the planner uses one when the statement compares the very expression it
 * holds, and a statement reads the same rows with or without it (README.md beside).
 */

export type ValuesColumn = 'item_values' | 'published_values';

/**
 * `text`: `values #>> path`, what text equality (`eq`, `in` on string, slug and link
 * fields) compares. `json`: `values #> path`, what an order by a field's value sorts by.
 */
export type ValueIndexKind = 'text' | 'json';

export type ValueIndex = Readonly<{
  modelId: string;
  fieldId: string;
  /** The field's locale when it is localized, else null. */
  locale: string | null;
  column: ValuesColumn;
  kind: ValueIndexKind;
}>;

const KIND_LETTER: Readonly<Record<ValueIndexKind, string>> = { text: 't', json: 'j' };
const COLUMN_LETTER: Readonly<Record<ValuesColumn, string>> = {
  item_values: 'c',
  published_values: 'p',
};
// PostgreSQL truncates longer identifiers, and two truncated names could then collide.
const MAX_NAME_LENGTH = 63;

const NAME_PREFIX = 'iv_';
/** The table value indexes are on, as the catalog names it (a parameter, not SQL text). */
const INDEXED_TABLE = 'items';
// Neither an id (base64url or decimal) nor a locale code holds it: a name parses back.
const LOCALE_SEPARATOR = '@';

/** A locale as a name holds it: itself, or a hash when the name would be too long. */
function localePart(locale: string): string {
  return locale.length <= MAX_NAME_LENGTH - 40
    ? locale
    : createHash('sha1').update(locale).digest('hex').slice(0, 16);
}

/**
 * The index's name: `iv_`, kind and column letters, `_`, the field id, then `@` and the
 * locale when localized; derived only from what it indexes, and parsed back by drops.
 */
export function valueIndexName(index: Omit<ValueIndex, 'modelId'>): string {
  const stem = `${NAME_PREFIX}${KIND_LETTER[index.kind]}${COLUMN_LETTER[index.column]}_${index.fieldId}`;
  return index.locale === null ? stem : `${stem}${LOCALE_SEPARATOR}${localePart(index.locale)}`;
}

/** `{"a","b"}`: a text[] literal, each element quoted (field ids and locales are plain). */
function pathLiteral(index: ValueIndex): string {
  const parts = index.locale === null ? [index.fieldId] : [index.fieldId, index.locale];
  return `{${parts.map((part) => `"${part.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

// An index build waits for the record writes in progress and holds new ones back while it
// reads the model's records: it gives up rather than queue behind a long write.
const BUILD_LOCK_TIMEOUT = '2s';
/** duplicate_table / unique_violation: a concurrent request built the same index first. */
const BUILT_BY_ANOTHER = new Set(['42P07', '23505']);
/** lock_not_available: the build gave way to writes. */
const GAVE_WAY = '55P03';

/** Thrown out of the cached read, so that nothing is kept and a later list tries again. */
class BuildGaveWay extends Error {}

async function build(scope: Scope, index: ValueIndex): Promise<void> {
  const name = valueIndexName(index);
  const table = qualifiedTable(scope.environment.schemaName, INDEXED_TABLE);
  const operator = index.kind === 'text' ? sql.raw('#>>') : sql.raw('#>');
  // Literals, not parameters: DDL takes none, and the planner matches an index expression
  // against the statement's constants (parameters are bound before planning).
  const value = sql`(${sql.ref(index.column)} ${operator} ${sql.lit(pathLiteral(index))}::text[])`;
  try {
    await scope.project.connection().execute(async (db) => {
      await sql`SET lock_timeout = ${sql.lit(BUILD_LOCK_TIMEOUT)}`.execute(db);
      try {
        await sql`CREATE INDEX IF NOT EXISTS ${sql.id(name)} ON ${table} (${value})
          WHERE item_type_id = ${sql.lit(index.modelId)}`.execute(db);
      } finally {
        await sql`RESET lock_timeout`.execute(db);
      }
    });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (BUILT_BY_ANOTHER.has(code)) return;
    if (code === GAVE_WAY) throw new BuildGaveWay(code);
    throw error;
  }
}

/** How many value indexes the environment has (a statement on the catalog, before a build). */
async function valueIndexCount(scope: Scope): Promise<number> {
  const found = await sql<{ count: string }>`
    SELECT count(*) AS count FROM pg_indexes
    WHERE schemaname = ${scope.environment.schemaName} AND tablename = ${INDEXED_TABLE}
      AND starts_with(indexname, ${NAME_PREFIX})
  `.execute(scope.db);
  return Number(found.rows[0]?.count ?? 0);
}

/**
 * Makes sure these indexes exist (up to MAX_VALUE_INDEXES per environment) before the statement that can use them runs. Kept in the
 * schema cache once made: no statement until the schema moves (a schema change may drop
 * them, and the next request, at the new version, looks again).
 */
export async function ensureValueIndexes(
  scope: Scope,
  wanted: readonly ValueIndex[],
): Promise<void> {
  for (const index of wanted) {
    const name = valueIndexName(index);
    try {
      await cachedSchemaRead(scope, `value-index:${name}`, async () => {
        const found = await sql<{ found: boolean }>`
          SELECT to_regclass(${`"${scope.environment.schemaName}"."${name}"`}) IS NOT NULL AS found
        `.execute(scope.db);
        if (found.rows[0]?.found === true) return true;
        if ((await valueIndexCount(scope)) >= MAX_VALUE_INDEXES) return false;
        await build(scope, index);
        return true;
      });
    } catch (error) {
      // The list runs without the index this time: the same rows, only slower.
      if (!(error instanceof BuildGaveWay)) throw error;
    }
  }
}

/** The field a value index name holds (after `iv_` and two letters), and its locale part. */
function partsOfName(name: string): { fieldId: string; locale: string | null } {
  const [fieldId = '', locale] = name.slice(NAME_PREFIX.length + 3).split(LOCALE_SEPARATOR);
  return { fieldId, locale: locale ?? null };
}

/** The environment's value indexes, by name (one statement, on the catalog). */
async function valueIndexesOf(tx: ScopedTransaction): Promise<string[]> {
  const found = await sql<{ name: string }>`
    SELECT indexname AS name FROM pg_indexes
    WHERE schemaname = ${tx.environment.schemaName} AND tablename = ${INDEXED_TABLE}
      AND starts_with(indexname, ${NAME_PREFIX})
  `.execute(tx.db);
  return found.rows.map((row) => row.name);
}

async function dropIndexes(tx: ScopedTransaction, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const schema = tx.environment.schemaName;
  const qualified = names.map((name) => sql.table(`${schema}.${name}`));
  await sql`DROP INDEX IF EXISTS ${sql.join(qualified)}`.execute(tx.db);
}

/**
 * Drops every value index of these fields, in the schema change's transaction: after a
 * field's removal, a new type or a new localization, or its model's removal, an index of
 * its old values would only slow record writes down. A statement on the catalog, and one
 * more when there is something to drop.
 */
export async function dropValueIndexes(
  tx: ScopedTransaction,
  fieldIds: readonly string[],
): Promise<void> {
  if (fieldIds.length === 0) return;
  const fields = new Set(fieldIds);
  const names = await valueIndexesOf(tx);
  await dropIndexes(
    tx,
    names.filter((name) => fields.has(partsOfName(name).fieldId)),
  );
}

/** Drops the value indexes of locales the environment no longer has (a site update). */
export async function dropValueIndexesOfLocales(
  tx: ScopedTransaction,
  locales: readonly string[],
): Promise<void> {
  const kept = new Set(locales.map((locale) => localePart(locale)));
  const names = await valueIndexesOf(tx);
  await dropIndexes(
    tx,
    names.filter((name) => {
      const { locale } = partsOfName(name);
      return locale !== null && !kept.has(locale);
    }),
  );
}
