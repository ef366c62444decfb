import { sql } from 'kysely';
import type { Db } from '../client.ts';
import { vacuumTablesWithDeadRows } from './embedded-vacuum.ts';

// PGlite runs no autovacuum launcher (`autovacuum` reads "on", yet nothing ever runs), so
// planner statistics never refresh on the embedded engine. With 100,000 records and no
// statistics, a page of one model's records is planned for ~180 rows: a bitmap scan of
// every record of the model, then a sort (0.3–0.4 s) instead of an index scan (~1 ms).
// This does autovacuum's analyze, with its default threshold: a table is analyzed once
// more than 50 rows + 10 % of its rows changed since its last analyze.
const CHANGED_ROWS = sql`s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup`;
// PGlite keeps no activity counts across a restart (they start again from zero), so a table
// filled and then reopened before its first analyze would wait for as many changes again:
// a table never analyzed (`reltuples` -1, kept in the catalog) is analyzed in any case.
const NEVER_ANALYZED = sql`c.reltuples < 0`;

/** Analyzes every table changed enough since its last analyze, or never analyzed; returns their names. */
export async function analyzeChangedTables(db: Db): Promise<string[]> {
  const changed = await sql<{ name: string }>`
    SELECT quote_ident(s.schemaname) || '.' || quote_ident(s.relname) AS name
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE ${CHANGED_ROWS} OR ${NEVER_ANALYZED}`.execute(db);
  const analyzed: string[] = [];
  for (const { name } of changed.rows) {
    try {
      await sql`ANALYZE ${sql.raw(name)}`.execute(db);
      analyzed.push(name);
    } catch (error) {
      // A table dropped since (an environment destroyed) has nothing left to analyze.
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
  }
  return analyzed;
}

/**
 * Does autovacuum's work every `intervalMs` until stopped (vacuumTablesWithDeadRows, then
 * analyzeChangedTables); never keeps the process up.
 */
export function autovacuumEvery(db: Db, intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    vacuumTablesWithDeadRows(db)
      .then(() => analyzeChangedTables(db))
      .catch((error: Error) => process.emitWarning(`Embedded autovacuum failed: ${error.message}`))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
