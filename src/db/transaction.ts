import { sql, type Transaction } from 'kysely';
import type { Db } from './client.ts';
import type { Database } from './schema.ts';

export type Trx = Transaction<Database>;
/** Either the pool or an open transaction: read helpers accept both. */
export type Queryable = Db | Trx;

// Arbitrary constant naming the project's schema lock in pg_advisory_xact_lock.
const SCHEMA_LOCK_KEY = 7_246_001;

/**
 * Runs a schema change in one transaction that holds the schema lock. Schema writes
 * are rare and short, and serialising them makes positions, menu appends and
 * uniqueness checks race-free on every engine.
 */
export async function inSchemaTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    // A literal key leaves no parameter, so the lock takes one simple-protocol message.
    await sql`SELECT pg_advisory_xact_lock(${sql.lit(SCHEMA_LOCK_KEY)})`.execute(trx);
    return fn(trx);
  });
}

/** The name of the unique constraint a statement violated, or null for any other error. */
export function violatedUniqueConstraint(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' ? (e.constraint ?? '') : null;
}
