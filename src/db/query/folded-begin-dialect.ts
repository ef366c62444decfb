import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';

/**
 * Kysely's PostgresDialect with a driver that sends a transaction's BEGIN in the same round
 * trip as its first statement. node-postgres sends nothing before the previous answer is in,
 * so Kysely's own driver spends a whole round trip on BEGIN; on PostgreSQL a write request's
 * CPU is mostly those round trips' socket writes. A statement without parameters goes out by
 * the simple query protocol, which takes `BEGIN; <statement>` as one message and answers each
 * statement in turn; a statement with parameters (extended protocol) cannot carry it, and
 * BEGIN then goes alone just before it. Both engines take this (PGlite's bridge included).
 */
export class FoldedBeginDialect extends PostgresDialect {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    super({ pool });
    this.#pool = pool;
  }

  override createDriver(): Driver {
    return new FoldedBeginDriver(this.#pool);
  }
}

/**
 * Savepoints and streaming are not offered: nothing uses them, and Kysely says so plainly
 * if something starts to.
 */
class FoldedBeginDriver implements Driver {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<FoldedBeginConnection> {
    // A connection object per acquisition: a BEGIN left pending can never outlive it.
    return new FoldedBeginConnection(await this.#pool.connect());
  }

  async beginTransaction(
    connection: FoldedBeginConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    let begin = 'begin';
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) begin += ` ${settings.accessMode}`;
    connection.deferBegin(begin);
  }

  async commitTransaction(connection: FoldedBeginConnection): Promise<void> {
    // A transaction that sent no statement never reached the database: nothing to end.
    if (connection.endTransaction()) await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: FoldedBeginConnection): Promise<void> {
    // Sent whenever BEGIN went out, even with a statement that failed to parse (neither ran):
    // ROLLBACK outside a transaction is only a warning.
    if (connection.endTransaction()) await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: FoldedBeginConnection): Promise<void> {
    connection.release();
  }

  async destroy(): Promise<void> {
    await this.#pool.end();
  }
}

class FoldedBeginConnection implements DatabaseConnection {
  readonly #client: pg.PoolClient;
  /** The BEGIN of the open transaction while it waits for the transaction's first statement. */
  #pendingBegin: string | null = null;

  constructor(client: pg.PoolClient) {
    this.#client = client;
  }

  deferBegin(begin: string): void {
    this.#pendingBegin = begin;
  }

  /** Ends the transaction's bookkeeping; true when its BEGIN went out (so it must be ended). */
  endTransaction(): boolean {
    const sent = this.#pendingBegin === null;
    this.#pendingBegin = null;
    return sent;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const begin = this.#pendingBegin;
    if (begin === null) return this.#send<R>(query.sql, query.parameters, false);
    this.#pendingBegin = null;
    // Prepared statements (prepared.ts) pass a `{ name, text }` object: extended protocol.
    if (typeof query.sql === 'string' && query.parameters.length === 0) {
      return this.#send<R>(`${begin}; ${query.sql}`, [], true);
    }
    // Through `this.executeQuery`, so Kysely's log (query-count.ts) counts the round trip.
    await this.executeQuery(CompiledQuery.raw(begin));
    return this.#send<R>(query.sql, query.parameters, false);
  }

  // biome-ignore lint/correctness/useYield: required by the interface, never streams
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries is not supported');
  }

  release(): void {
    this.#client.release();
  }

  async #send<R>(
    sql: string,
    parameters: readonly unknown[],
    afterBegin: boolean,
  ): Promise<QueryResult<R>> {
    let result: pg.QueryResult | pg.QueryResult[];
    try {
      result = await this.#client.query(sql, [...parameters]);
    } catch (error) {
      throw withCallerStack(error);
    }
    // A multi-statement text answers an array, one result per statement; BEGIN's is the
    // first. What remains reads as Kysely's driver reads it (an array has no rows).
    if (afterBegin && Array.isArray(result))
      result = result.length === 2 ? result[1] : result.slice(1);
    const { command, rowCount, rows } = result as Partial<pg.QueryResult<R & pg.QueryResultRow>>;
    const changes =
      command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return {
      numAffectedRows: changes ? BigInt(rowCount ?? 0) : undefined,
      rows: (rows ?? []) as R[],
    };
  }
}

/** node-postgres errors carry the socket reader's stack: add the caller's, as Kysely does. */
function withCallerStack(error: unknown): unknown {
  const here = new Error().stack;
  if (error instanceof Error && error.stack && here) {
    error.stack += `\n${here.split('\n').slice(1).join('\n')}`;
  }
  return error;
}
