import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';

/** The pool, a transaction, project-wide or scoped: anything that runs a compiled query. */
type Executor = { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };

// Names already derived, by statement text: the texts are few (fixed shapes, one per
// environment schema), and hashing one costs more than the lookup on every call.
const names = new Map<string, string>();
// A bound on the map for processes that serve many environments over their life.
const MAX_NAMES = 2_000;

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    name = `fh_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

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
  const named = { name: statementName(compiled.sql), text: compiled.sql } as unknown as string;
  const result = await db.executeQuery<Row>({ ...compiled, sql: named });
  return result.rows;
}
