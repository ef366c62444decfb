import { sql } from 'kysely';
import type { Db } from '../client.ts';

// PGlite runs no autovacuum (embedded-analyze.ts): the space of deleted and updated rows
// is never made reusable, so every update of a large record and every pruned version or
// event grows the data directory for good. This does autovacuum's vacuum, with its
// default threshold: a table is vacuumed once more than 50 rows + 20 % of its rows are
// dead, in the table or in its TOAST table (where large values live: one update of a
// 1 MB value leaves ~500 dead TOAST rows and a single dead row in the table).
const DEAD_ROWS = (stats: string) =>
  sql.raw(`${stats}.n_dead_tup > 50 + 0.2 * ${stats}.n_live_tup`);

/** Vacuums every table with dead rows beyond the threshold; returns their names. */
export async function vacuumTablesWithDeadRows(db: Db): Promise<string[]> {
  const dead = await sql<{ name: string }>`
    SELECT quote_ident(s.schemaname) || '.' || quote_ident(s.relname) AS name
    FROM pg_stat_user_tables s
    JOIN pg_class c ON c.oid = s.relid
    LEFT JOIN pg_stat_all_tables t ON t.relid = c.reltoastrelid
    WHERE ${DEAD_ROWS('s')} OR ${DEAD_ROWS('t')}`.execute(db);
  const vacuumed: string[] = [];
  for (const { name } of dead.rows) {
    try {
      await sql`VACUUM ${sql.raw(name)}`.execute(db);
      vacuumed.push(name);
    } catch (error) {
      // A table dropped since (an environment destroyed) has nothing left to vacuum.
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
  }
  return vacuumed;
}
