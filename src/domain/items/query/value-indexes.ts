import { sql } from 'kysely';
import type { Scope, ScopedTransaction } from '../../../db/environment-scope.ts';
import { cachedSchemaRead } from '../../caches/caches.ts';
import { MAX_VALUE_INDEXES } from '../../limits.ts';
import { buildValueIndex, indexState } from './value-index-builds.ts';
import {
  INDEXED_TABLE,
  localePart,
  NAME_PREFIX,
  partsOfName,
  type ValueIndex,
  valueIndexName,
} from './value-index-names.ts';

/**
 * Value indexes: an expression index on one field's value (in one locale, current or
 * published) over the records of its model, made the first time a list filters or sorts
 * by that value, and dropped by the schema changes that make it useless. They only speed
 * statements up: the planner uses one when the statement compares the very expression it
 * holds, and a statement reads the same rows with or without it (README.md beside).
 */

export type {
  ValueIndex,
  ValueIndexKind,
  ValuesColumn,
} from './value-index-names.ts';

/** Thrown out of the cached read, so that nothing is kept and a later list tries again. */
class BuildGaveWay extends Error {}

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
 * Makes sure these indexes exist (up to MAX_VALUE_INDEXES per environment) before the
 * statement that can use them runs. Kept in the schema cache once made: no statement
 * until the schema moves (a schema change may drop them, and the next request, at the
 * new version, looks again).
 */
export async function ensureValueIndexes(
  scope: Scope,
  wanted: readonly ValueIndex[],
): Promise<void> {
  for (const index of wanted) {
    const name = valueIndexName(index);
    try {
      await cachedSchemaRead(scope, `value-index:${name}`, async () => {
        const state = await indexState(scope.db, scope.environment.schemaName, name);
        if (state === 'valid') return true;
        // Another request's build: this list runs without it rather than wait.
        if (state === 'building') throw new BuildGaveWay();
        if (state === 'missing' && (await valueIndexCount(scope)) >= MAX_VALUE_INDEXES)
          return false;
        const outcome = await buildValueIndex(scope, index);
        if (outcome === 'gave way') throw new BuildGaveWay();
        // Unbuildable: a stored value the expression cannot take; tried again at the
        // next schema version, not by every list.
        return outcome === 'built';
      });
    } catch (error) {
      // The list runs without the index this time: the same rows, only slower.
      if (!(error instanceof BuildGaveWay)) throw error;
    }
  }
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
