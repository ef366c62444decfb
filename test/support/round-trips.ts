import assert from 'node:assert/strict';
import pg from 'pg';

/**
 * The statement texts this process sends to any database while `fn` runs, one per round
 * trip: each `query` call of node-postgres sends its messages and waits for their answer
 * before the next, on both engines (PGlite's bridge is a node-postgres client too); a run
 * of several statements is one call, whose text is theirs joined by "; "
 * (src/db/query/statement-run.ts). It watches `query` and calls it on unchanged, so what
 * it records is what really went out.
 */
export async function roundTripsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config] = args as [string | { text: string }];
    sent.push((typeof config === 'string' ? config : config.text).replace(/\s+/g, ' ').trim());
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}

// What the process sends on its own, at any moment: the in-process delivery worker's and
// scheduler's polls, and the embedded engine's minutely analyze (embedded-analyze.ts).
// The scheduler's poll begins with the ready environments, a text no request sends
// (environmentsWithDueSchedules): it once fell inside a measured request on a busy run.
const BACKGROUND =
  /webhook_calls|scheduled_actions|pg_stat_user_tables|^ANALYZE |^select "id", "number", "schema_name", "is_primary" from "environments" where "status" = \$1$/;

// An event's statement queues its webhook calls too (events/outbox.ts): a request's.
const RECORDS_EVENT = /"event" AS \(/;

/** As roundTripsOf, less what the process sends on its own: what `fn`'s requests sent. */
export async function requestRoundTripsOf(fn: () => Promise<unknown>): Promise<string[]> {
  return (await roundTripsOf(fn)).filter(
    (text) => RECORDS_EVENT.test(text) || !BACKGROUND.test(text),
  );
}

/**
 * The statements of the one change `fn` makes, from its BEGIN (sent with the environment
 * entry) to its COMMIT, one entry per round trip: writes named by their tables, reads as
 * `select`, and the statements of one round trip (a run: held statements go with the
 * next one, src/db/query/pipelining-dialect.ts) joined by "; ".
 */
export async function transactionOf(fn: () => Promise<unknown>): Promise<string[]> {
  return (await changeOf(fn)).statements;
}

/** As transactionOf, with what `fn` gave: the change's answer, to check against a read. */
export async function changeOf<T>(
  fn: () => Promise<T>,
): Promise<{ statements: string[]; result: T }> {
  let result: T | undefined;
  const sent = await requestRoundTripsOf(async () => {
    result = await fn();
  });
  return { statements: changeStatements(sent), result: result as T };
}

function changeStatements(sent: string[]): string[] {
  const trips = sent.map((text) => text.split('; ').map(statementKind).join('; '));
  const start = trips.findIndex((trip) => /^begin; SELECT (\* FROM )?enter_/.test(trip));
  const end = trips.findIndex((trip, index) => index >= start && trip.endsWith('commit'));
  assert.ok(start >= 0 && end >= start, sent.join('\n'));
  return trips.slice(start, end + 1);
}

/** A statement as a change's summary names it. */
function statementKind(text: string): string {
  if (text === 'commit' || text === 'begin') return text;
  if (/^SELECT (\* FROM )?enter_|^SELECT fieldhouse_check_access\(/.test(text)) {
    return text.split('(')[0] ?? text;
  }
  // The schema version a schema change leaves, read last (src/db/schema-version-left.ts).
  if (/^SELECT schema_version::text AS version FROM environments/.test(text)) {
    return 'select version left';
  }
  // Reads (models with subqueries) only as reads; writes, CTEs included, by their tables.
  if (text.startsWith('select')) return 'select';
  const writes = [
    ...text.matchAll(/(insert into|update|delete from) (?:"env_\d+"\.)?"(\w+)"/g),
  ].map(([, verb, table]) => `${verb} ${table}`);
  return writes.length > 0 ? writes.join(' + ') : (text.split(' ')[0] ?? '');
}
