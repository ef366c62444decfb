import pg from 'pg';
import { percentile } from './support.ts';

// Every statement of the process goes through pg.Client#query (PGlite's bridge included):
// importing this module counts them, for the benches that report statements per request.
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...params: unknown[]) {
  statements++;
  return (query as (...p: unknown[]) => unknown).apply(this, params);
} as typeof query;

/** Each call's duration in ms and the statements it ran. */
export type Samples = { ms: number[]; statements: number[] };

export const samples = (): Samples => ({ ms: [], statements: [] });

/** Runs `call`, recording its duration and statement count into `into`. */
export async function timed<T>(into: Samples, call: () => Promise<T>): Promise<T> {
  const before = statements;
  const started = performance.now();
  const result = await call();
  into.ms.push(performance.now() - started);
  into.statements.push(statements - before);
  return result;
}

export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
