import type { LogEvent } from 'kysely';

/**
 * A count of the round trips this process made to the database (COMMIT included; BEGIN
 * only when it cannot travel with its transaction's first statement, folded-begin-dialect.ts),
 * kept only when FIELDHOUSE_COUNT_QUERIES=1 (or sql): the latency bench reads it per
 * request from a response header, to see round trips that timings alone would hide. With
 * FIELDHOUSE_COUNT_QUERIES=sql each statement's time and text also go to stderr, one line
 * each, to see which statements a request sent and what each cost.
 */
const mode = process.env.FIELDHOUSE_COUNT_QUERIES;
export const countingQueries = mode === '1' || mode === 'sql';
const printingQueries = mode === 'sql';

let sent = 0;

export function queriesSent(): number {
  return sent;
}

/** Kysely's `log` option when counting; nothing otherwise, so Kysely skips its timing. */
export const queryCounter: ((event: LogEvent) => void) | undefined = countingQueries
  ? (event) => {
      sent++;
      if (printingQueries) {
        const ms = event.queryDurationMillis.toFixed(3);
        process.stderr.write(`${ms} ms ${statementText(event).replace(/\s+/g, ' ')}\n`);
      }
    }
  : undefined;

/** Prepared shapes carry their text in a `{ name, text }` object instead of a string. */
function statementText(event: LogEvent): string {
  const sql = event.query.sql as unknown as string | { text: string };
  return typeof sql === 'string' ? sql : sql.text;
}
