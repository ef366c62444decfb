import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { countRoundTrip } from './query-count.ts';
import { type RunPart, sendRun } from './statement-run.ts';

/**
 * Kysely's PostgresDialect with a driver that holds back what no code waits for, a
 * transaction's BEGIN and its held statements (`held`), and sends it in one round trip with
 * the transaction's next statement, or with its COMMIT. node-postgres sends nothing before
 * the previous answer is in, so each of those would otherwise cost a round trip of its own;
 * on PostgreSQL a write request's time and CPU are mostly its round trips. Both engines take
 * this (PGlite's bridge hands a run to the backend whole). How it behaves: src/db/README.md,
 * "Round trips".
 */
export class PipeliningDialect extends PostgresDialect {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    super({ pool });
    this.#pool = pool;
  }

  override createDriver(): Driver {
    return new PipeliningDriver(this.#pool);
  }
}

/**
 * A statement's text as prepared.ts passes it: `held` when the statement may wait for the
 * next one of its transaction (its result is not read, and its failure may surface there);
 * a held statement may still want its rows, once its run succeeded (`receive`).
 */
export type NamedStatement = {
  name: string;
  text: string;
  held?: boolean;
  receive?: (rows: readonly unknown[]) => void;
};

// No statement: what asks the connection to send what its transaction holds (sendHeld).
const SEND_HELD: NamedStatement = { name: '', text: '', held: true };

/**
 * Sends what the transaction `on` holds, now, and answers once it ran (its failure
 * rejects): for a change that must see its held statements run and yet not commit (a
 * validate-only change, rolled back after).
 */
export async function sendHeld(on: {
  executeQuery(query: CompiledQuery): Promise<unknown>;
}): Promise<void> {
  await on.executeQuery({ ...CompiledQuery.raw(''), sql: SEND_HELD as unknown as string });
}

/**
 * Savepoints and streaming are not offered: nothing uses them, and Kysely says so plainly
 * if something starts to.
 */
class PipeliningDriver implements Driver {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<PipeliningConnection> {
    // A connection object per acquisition: nothing held can ever outlive it.
    return new PipeliningConnection(await this.#pool.connect());
  }

  async beginTransaction(
    connection: PipeliningConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    let begin = 'begin';
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) begin += ` ${settings.accessMode}`;
    connection.begin(begin);
  }

  async commitTransaction(connection: PipeliningConnection): Promise<void> {
    // A transaction that sent and held nothing never reached the database: nothing to end.
    if (connection.endTransaction()) await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: PipeliningConnection): Promise<void> {
    // What is held is dropped unsent. ROLLBACK goes whenever BEGIN went out, even with a
    // statement that failed to parse (neither ran): outside a block it is only a warning.
    if (connection.abandonTransaction())
      await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: PipeliningConnection): Promise<void> {
    connection.release();
  }

  async destroy(): Promise<void> {
    await this.#pool.end();
  }
}

// Held statements sent without waiting for a next statement once this many wait: a change
// that emits many events in a row holds a bounded amount.
const MOST_HELD = 16;

const NOTHING_READ: QueryResult<never> = { rows: [] };

class PipeliningConnection implements DatabaseConnection {
  readonly #client: pg.PoolClient;
  /** The open transaction's BEGIN, until a statement takes it along. */
  #pendingBegin: string | null = null;
  /** Statements of the open transaction waiting for the next one (MOST_HELD at most). */
  #held: RunPart[] = [];
  #inTransaction = false;

  constructor(client: pg.PoolClient) {
    this.#client = client;
  }

  begin(begin: string): void {
    this.#pendingBegin = begin;
    this.#inTransaction = true;
  }

  /** Ends the transaction's bookkeeping; true when it must be committed (something went or waits). */
  endTransaction(): boolean {
    const reached = this.#pendingBegin === null || this.#held.length > 0;
    if (!reached) this.#pendingBegin = null;
    this.#inTransaction = false;
    return reached;
  }

  /** Drops what is held; true when BEGIN went out (so the block must be rolled back). */
  abandonTransaction(): boolean {
    const sent = this.#pendingBegin === null;
    this.#pendingBegin = null;
    this.#held = [];
    this.#inTransaction = false;
    return sent;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const sql = query.sql as string | NamedStatement;
    const part: RunPart =
      typeof sql === 'string'
        ? { text: sql, values: query.parameters }
        : { text: sql.text, name: sql.name, values: query.parameters, receive: sql.receive };
    try {
      if (sql === SEND_HELD) {
        if (this.#held.length > 0) await this.#sendHeld();
        return NOTHING_READ;
      }
      // Held only inside a transaction: outside one, no COMMIT would ever carry it.
      if (typeof sql !== 'string' && sql.held && this.#inTransaction) {
        this.#held.push(part);
        if (this.#held.length >= MOST_HELD) await this.#sendHeld();
        return NOTHING_READ;
      }
      return readAsKysely<R>(await this.#send(part));
    } catch (error) {
      throw withCallerStack(error);
    }
  }

  // biome-ignore lint/correctness/useYield: required by the interface, never streams
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries is not supported');
  }

  release(): void {
    this.#client.release();
  }

  /** What goes before the next statement: BEGIN if it has not gone, then what is held. */
  #takeWaiting(): RunPart[] {
    const waiting: RunPart[] =
      this.#pendingBegin === null ? [] : [{ text: this.#pendingBegin, values: [] }];
    this.#pendingBegin = null;
    waiting.push(...this.#held);
    this.#held = [];
    return waiting;
  }

  async #sendHeld(): Promise<void> {
    countRoundTrip();
    await sendRun(this.#client, this.#takeWaiting());
  }

  /** Sends `part` with whatever waits for it, in one round trip; answers `part`'s result. */
  async #send(part: RunPart): Promise<pg.QueryResult> {
    countRoundTrip();
    const begin = this.#pendingBegin;
    const waiting = this.#takeWaiting();
    const config = part.name ? { name: part.name, text: part.text } : part.text;
    if (waiting.length === 0)
      return received(part, await this.#client.query(config, [...part.values]));
    // BEGIN alone before a statement without parameters goes as one simple-protocol text,
    // which also takes a text of several statements; its first result is BEGIN's. A run
    // takes one statement per text: a text of several after a held statement is refused
    // by the server ("cannot insert multiple commands into a prepared statement").
    if (begin !== null && waiting.length === 1 && !part.name && part.values.length === 0) {
      const results = (await this.#client.query(`${begin}; ${part.text}`)) as unknown as
        | pg.QueryResult[]
        | pg.QueryResult;
      return received(part, Array.isArray(results) ? lastResult(results.slice(1)) : results);
    }
    return lastResult(await sendRun(this.#client, [...waiting, part]));
  }
}

/**
 * Hands a statement sent alone its rows if it wants them (`receive`), as sendRun does for
 * the statements of a run: a held statement goes alone outside a transaction.
 */
function received(part: RunPart, result: pg.QueryResult): pg.QueryResult {
  part.receive?.(result.rows ?? []);
  return result;
}

/** The result a statement answers; a text of several statements answers its last one's. */
function lastResult(results: readonly pg.QueryResult[]): pg.QueryResult {
  const last = results.at(-1);
  if (!last) throw new Error('a run answered no result');
  return last;
}

/** A node-postgres result as Kysely's own driver reads it. */
function readAsKysely<R>(result: pg.QueryResult): QueryResult<R> {
  const { command, rowCount, rows } = result;
  const changes =
    command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return {
    numAffectedRows: changes ? BigInt(rowCount ?? 0) : undefined,
    rows: (rows ?? []) as R[],
  };
}

/** node-postgres errors carry the socket reader's stack: add the caller's, as Kysely does. */
function withCallerStack(error: unknown): unknown {
  const here = new Error().stack;
  if (error instanceof Error && error.stack && here) {
    error.stack += `\n${here.split('\n').slice(1).join('\n')}`;
  }
  return error;
}
