import { sql } from 'kysely';
import type { Db } from '../../src/db/client.ts';

// The value indexes lists build (src/domain/items/query/value-indexes.ts), read and dropped
// straight from the catalog: tests compare lists with their indexes and without them.

/** The names of the value indexes of every environment, sorted. */
export async function valueIndexNames(db: Db): Promise<string[]> {
  const found = await sql<{ name: string }>`
    SELECT indexname AS name FROM pg_indexes
    WHERE tablename = 'items' AND starts_with(indexname, 'iv_') ORDER BY 1
  `.execute(db);
  return found.rows.map((row) => row.name);
}

/**
 * Drops every value index; the server still believes them there (its schema cache), so
 * its lists then run the same statements without them. A statement on each environment's
 * records (changing none) moves its records version, so those lists are read again rather
 * than answered from the list cache.
 */
export async function dropAllValueIndexes(db: Db): Promise<void> {
  const found = await sql<{ schema: string; name: string }>`
    SELECT schemaname AS schema, indexname AS name FROM pg_indexes
    WHERE tablename = 'items' AND starts_with(indexname, 'iv_')
  `.execute(db);
  for (const row of found.rows)
    await sql`DROP INDEX ${sql.table(`${row.schema}.${row.name}`)}`.execute(db);
  for (const schema of new Set(found.rows.map((row) => row.schema)))
    await sql`UPDATE ${sql.table(`${schema}.items`)} SET updated_at = updated_at WHERE false`.execute(
      db,
    );
}
