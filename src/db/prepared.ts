import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';

/** The pool, a transaction, project-wide or scoped: anything that runs a compiled query. */
type Executor = { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };

/**
 * Runs a query as a named prepared statement, so each connection parses and plans it
 * once instead of on every call: for the hot path's multi-join and JSON-building
 * queries that is half their cost, most of all in the embedded (WASM) engine.
 *
 * Use it only for queries of a fixed shape (no `in (…)` lists of varying length): each
 * distinct text becomes one statement per connection. The name is derived from the
 * text, so two texts can never share one name.
 * Kysely hands `sql` to node-postgres unchanged, and node-postgres accepts a
 * `{ name, text }` config there (the dialect has no option for names).
 * Select explicit columns (or `row_to_json(t.*)`), never `t.*`: a cached plan whose
 * result columns change under a later migration fails instead of re-planning.
 */
export async function executePrepared<Row>(db: Executor, query: Compilable<Row>): Promise<Row[]> {
  const compiled = query.compile();
  const name = `fh_${createHash('sha1').update(compiled.sql).digest('base64url')}`;
  const named = { name, text: compiled.sql } as unknown as string;
  const result = await db.executeQuery<Row>({ ...compiled, sql: named });
  return result.rows;
}
