import { type Kysely, sql } from 'kysely';

// Per-token request counters shared by every API process. UNLOGGED: a counter lost in a
// database crash only resets a window, and skipping the WAL keeps each request cheap.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE rate_limit_windows (
      key text PRIMARY KEY,
      window_start bigint NOT NULL,
      hits integer NOT NULL
    )
  `.execute(db);
}
