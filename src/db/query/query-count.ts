import type { LogEvent } from 'kysely';

/**
 * A count of the round trips this process made to the database, kept only when
 * FIELDHOUSE_COUNT_QUERIES=1 (or sql): the latency bench reads it per request from a
 * response header, to see round trips that timings alone would hide. The connection counts
 * what it sends (pipelining-dialect.ts): a run of statements is one, and statements held
 * for a later one count with it. With FIELDHOUSE_COUNT_QUERIES=sql each statement's time
 * and text also go to stderr, one line each, to see which statements a request sent and
 * what each cost (a held statement shows no time of its own: its time is in the
 * statement it went with).
 */
const mode = process.env.FIELDHOUSE_COUNT_QUERIES;
export const countingQueries = mode === '1' || mode === 'sql';
const printingQueries = mode === 'sql';

let sent = 0;

export function queriesSent(): number {
  return sent;
}

export function countRoundTrip(): void {
  if (countingQueries) sent++;
}

/** Kysely's `log` option when printing; nothing otherwise, so Kysely skips its timing. */
export const statementPrinter: ((event: LogEvent) => void) | undefined = printingQueries
  ? (event) => {
      const ms = event.queryDurationMillis.toFixed(3);
      process.stderr.write(`${ms} ms ${statementText(event).replace(/\s+/g, ' ')}\n`);
    }
  : undefined;

/** Prepared shapes carry their text in a `{ name, text }` object instead of a string. */
function statementText(event: LogEvent): string {
  const sql = event.query.sql as unknown as string | { text: string };
  return typeof sql === 'string' ? sql : sql.text;
}
