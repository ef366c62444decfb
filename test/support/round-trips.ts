import pg from 'pg';

/**
 * The statement texts this process sends to any database while `fn` runs, one per round
 * trip: node-postgres sends one query message per `query` call and waits for its answer
 * before the next, on both engines (PGlite's bridge is a node-postgres client too). It
 * watches `query` and calls it on unchanged, so what it records is what really went out.
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
