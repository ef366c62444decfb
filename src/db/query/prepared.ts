import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { BoundedMemo } from '../../bounded-memo.ts';
import { schemaOf } from '../environment-scope.ts';
import type { NamedStatement } from './pipelining-dialect.ts';

/** The pool, a transaction, project-wide or scoped: anything that runs a compiled query. */
type Executor = { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };

// Names already derived, by statement text: the texts are few (fixed shapes, one per
// environment schema), and hashing one costs more than the lookup on every call. Bounded
// for processes that serve many environments over their life.
const names = new BoundedMemo<string, string>(2_000);

function statementName(text: string): string {
  return names.get(text, () => `fh_${createHash('sha1').update(text).digest('base64url')}`);
}

/**
 * Runs a query as a named prepared statement, so each connection parses and plans it
 * once instead of on every call: for the hot path's multi-join and JSON-building
 * queries that is half their cost, most of all in the embedded (WASM) engine.
 *
 * Use it only for queries of a fixed shape (no `in (…)` lists of varying length): each
 * distinct text becomes one statement per connection. The name is derived from the
 * text, so two texts can never share one name.
 * Kysely hands `sql` to the connection unchanged, so it carries a `{ name, text }`
 * object there (pipelining-dialect.ts sends it as a named statement).
 * Select explicit columns (or `row_to_json(t.*)`), never `t.*`: a cached plan whose
 * result columns change under a later migration fails instead of re-planning.
 *
 * `held`: inside a transaction, the statement waits to go out with the transaction's next
 * statement or its COMMIT, in one round trip (pipelining-dialect.ts), and answers no rows.
 * Its failure surfaces there: hold only a statement whose result nothing reads, in a
 * change whose errors are told apart outside its transaction.
 */
export async function executePrepared<Row>(
  db: Executor,
  query: Compilable<Row>,
  options: SendOptions = {},
): Promise<Row[]> {
  const compiled = query.compile();
  const statement: NamedStatement = { name: statementName(compiled.sql), text: compiled.sql };
  if (options.held) statement.held = true;
  if (options.receive) statement.receive = options.receive as NamedStatement['receive'];
  const named = statement as unknown as string;
  const result = await db.executeQuery<Row>({ ...compiled, sql: named });
  return result.rows;
}

/**
 * `receive`, with `held`: what takes the statement's rows once the run it went in
 * succeeded (a COMMIT's run included): for a read at the end of a change whose answer is
 * wanted only if the change committed.
 */
export type SendOptions = Readonly<{
  held?: boolean;
  receive?: (rows: readonly unknown[]) => void;
}>;

/** Stands for an argument of a statement of fixed shape while it is compiled. */
class Placeholder {
  constructor(readonly index: number) {}
}

/** Where each parameter of a compiled shape comes from: an argument, or a constant. */
type Source = Placeholder | { value: unknown };

type CompiledShape = { query: CompiledQuery<unknown>; sources: Source[] };

/**
 * A statement of fixed shape, run as executePrepared runs it, that Kysely builds and
 * compiles once per schema it runs in instead of on every call (30–120 µs of CPU for
 * the hot path's statements): `build` is called with placeholders for the arguments,
 * and each call's arguments then take their places among the compiled parameters.
 * `build` may pass an argument only as a value for a parameter: never inspect it, test
 * it or spread it, nor use it as an `in` list.
 */
export function preparedShape<Db extends Executor & object, Args extends unknown[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
  options: SendOptions = {},
): (db: Db, ...args: Args) => Promise<Row[]> {
  const bySchema = new Map<string, CompiledShape>();
  return async (db, ...args) => {
    // Project handles have no schema of their own: they share one entry.
    const key = schemaOf(db) ?? '';
    let shape = bySchema.get(key);
    if (!shape) {
      const placeholders = args.map((_, index) => new Placeholder(index));
      const query = build(db, ...(placeholders as Args)).compile() as CompiledQuery<unknown>;
      const sources = query.parameters.map(
        (value): Source => (value instanceof Placeholder ? value : { value }),
      );
      // An argument that is no parameter was used otherwise: its value would be lost.
      if (!placeholders.every((placeholder) => sources.includes(placeholder)))
        throw new Error('preparedShape: an argument is not a parameter of the statement');
      shape = { query, sources };
      bySchema.set(key, shape);
    }
    const parameters = shape.sources.map((source) =>
      source instanceof Placeholder ? args[source.index] : source.value,
    );
    const compiled = { ...shape.query, parameters } as CompiledQuery<Row>;
    return executePrepared(db, { compile: () => compiled }, options);
  };
}
