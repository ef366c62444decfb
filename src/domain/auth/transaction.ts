import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { AUTH_LOCK_KEY } from '../../db/lock-keys.ts';
import type { Trx } from '../../db/transaction.ts';

/** Takes the auth lock for the rest of the caller's transaction. */
export async function lockAuth(trx: Trx): Promise<void> {
  // A literal key leaves no parameter, so the lock takes one simple-protocol message.
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(AUTH_LOCK_KEY)})`.execute(trx);
}

/**
 * Runs a role or access token write in one transaction holding the auth lock. These
 * writes are rare; serialising them makes the inheritance-cycle and in-use checks
 * race-free (inherits_permissions_from is jsonb, so no foreign key guards it).
 */
export async function inAuthTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockAuth(trx);
    return fn(trx);
  });
}
