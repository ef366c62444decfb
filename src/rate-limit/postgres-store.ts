import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import type { RateLimitStore, WindowCount } from './store.ts';

/**
 * Counts in a shared table, so every API process sharing one PostgreSQL enforces one
 * limit. One statement per request; the database clock decides the window, so processes
 * with skewed clocks still agree. The table is UNLOGGED: counters need no crash safety.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Db) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const { rows } = await sql<{ hits: number; reset_in_ms: number }>`
      WITH clock AS (
        SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now_ms
      ), upsert AS (
        INSERT INTO rate_limit_windows AS w (key, window_start, hits)
        SELECT ${key}, now_ms - now_ms % ${windowMs}, 1 FROM clock
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN w.window_start = EXCLUDED.window_start THEN w.hits + 1 ELSE 1 END,
          window_start = EXCLUDED.window_start
        RETURNING hits, window_start
      )
      SELECT hits, (window_start + ${windowMs} - now_ms)::integer AS reset_in_ms
      FROM upsert, clock
    `.execute(this.db);
    const row = rows[0];
    if (!row) throw new Error('rate limit upsert returned no row');
    return { hits: row.hits, resetInMs: row.reset_in_ms };
  }
}
