import type { LogEvent } from 'kysely';

/**
 * A count of the statements this process sent to the database (BEGIN and COMMIT
 * included), kept only when FIELDHOUSE_COUNT_QUERIES=1: the latency bench reads it per
 * request from a response header, to see round trips that timings alone would hide.
 */
export const countingQueries = process.env.FIELDHOUSE_COUNT_QUERIES === '1';

let sent = 0;

export function queriesSent(): number {
  return sent;
}

/** Kysely's `log` option when counting; nothing otherwise, so Kysely skips its timing. */
export const queryCounter: ((event: LogEvent) => void) | undefined = countingQueries
  ? () => {
      sent++;
    }
  : undefined;
