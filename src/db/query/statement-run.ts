import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/**
 * One statement of a run: its text, its prepared name if it has one, its parameters, and,
 * for a held statement whose rows are wanted, what takes them once the whole run succeeded.
 */
export type RunPart = Readonly<{
  text: string;
  name?: string;
  values: readonly unknown[];
  receive?: (rows: readonly unknown[]) => void;
}>;

/** node-postgres's wire connection, with its record of the statements it has parsed. */
type Wire = pg.Connection & { parsedStatements: Record<string, string> };

type Settle = (error: Error | undefined, results: unknown) => void;

/**
 * Several statements in one round trip, by the extended protocol: each one's Parse (unless
 * its prepared name is parsed on this connection already), Bind, Describe and Execute, then
 * one Sync. PostgreSQL runs them in order, each with a snapshot of its own taken as it
 * starts, and answers them all at the Sync. The first that fails ends the run (the server
 * skips the rest up to the Sync) and the run answers its error; inside a transaction block
 * the block is then aborted, as after any failed statement.
 *
 * node-postgres's Query gathers each statement's rows into a result of its own; this class
 * writes the run, and keeps node-postgres's record of parsed statements exact: a name is
 * recorded when the server confirms its Parse, so a run that fails part-way records no
 * name the server lacks and misses none it has.
 */
class StatementRun extends pg.Query {
  readonly #parts: readonly RunPart[];
  readonly #values: (string | Buffer | null)[][];
  readonly #ended: { detach: () => void };

  constructor(parts: readonly RunPart[], settle: Settle) {
    const ended = { detach: () => {} };
    // The run's text, as node-postgres (and anything watching its `query`) sees it.
    super({ text: parts.map((part) => part.text).join('; ') }, (error, results) => {
      ended.detach();
      settle(error, results);
    });
    this.#ended = ended;
    this.#parts = parts;
    // Mapped as node-postgres maps them, before anything is written: a value that cannot
    // be sent fails the run before any of it goes out.
    this.#values = parts.map((part) => part.values.map((value) => pgUtils.prepareValue(value)));
  }

  override submit = (connection: pg.Connection): void => {
    const wire = connection as Wire;
    const awaitingParse: string[] = [];
    const onParsed = () => {
      const name = awaitingParse.shift();
      const part = this.#parts.find((candidate) => candidate.name === name);
      if (name && part) wire.parsedStatements[name] = part.text;
    };
    wire.on('parseComplete', onParsed);
    this.#ended.detach = () => wire.off('parseComplete', onParsed);
    wire.stream.cork?.();
    try {
      this.#parts.forEach((part, index) => {
        const name = part.name ?? '';
        // Unnamed statements are parsed each time; a name once per connection.
        if (!name || (!wire.parsedStatements[name] && !awaitingParse.includes(name))) {
          wire.parse({ text: part.text, name, types: [] }, true);
          awaitingParse.push(name);
        }
        wire.bind({ statement: name, values: this.#values[index] ?? [] }, true);
        wire.describe({ type: 'P', name: '' }, true);
        wire.execute({ portal: '' }, true);
      });
      wire.sync();
    } finally {
      wire.stream.uncork?.();
    }
  };
}

/**
 * Sends `parts` in one round trip on `client` (StatementRun) and answers each one's
 * result, in order; rejects with the first failure's error. Once it succeeded, each part
 * that wants its rows (`receive`) is given them, in order.
 */
export async function sendRun(
  client: pg.ClientBase,
  parts: readonly RunPart[],
): Promise<pg.QueryResult[]> {
  const results = await new Promise<pg.QueryResult[]>((resolve, reject) => {
    const run = new StatementRun(parts, (error, answered) => {
      if (error) reject(error);
      else resolve((Array.isArray(answered) ? answered : [answered]) as pg.QueryResult[]);
    });
    client.query(run);
  });
  parts.forEach((part, index) => {
    part.receive?.(results[index]?.rows ?? []);
  });
  return results;
}
