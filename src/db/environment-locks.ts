import { sql } from 'kysely';
import type { Db } from './client.ts';
import { type EnvQueryable, schemaOf } from './environment-scope.ts';
import type { Trx } from './transaction.ts';

// The advisory locks a change to an environment takes: the environment's own (schema
// changes exclusive, record changes shared, forks for their session) and the record keys
// record changes exclude each other on. Every key is listed in lock-keys.ts.

// Arbitrary constant naming environment schema locks: pg_advisory_xact_lock(KEY, number).
export const ENVIRONMENT_LOCK_KEY = 7_246_001;

type LockFunction = 'pg_advisory_xact_lock' | 'pg_advisory_lock' | 'pg_advisory_unlock';

async function callEnvironmentLock(
  db: Db,
  fn: LockFunction,
  environmentNumber: number,
): Promise<void> {
  // Literal keys leave no parameter, so the call takes one simple-protocol message.
  await sql`SELECT ${sql.raw(fn)}(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(environmentNumber)})`.execute(
    db,
  );
}

/** Takes the environment's schema lock for the rest of the transaction. */
export async function lockEnvironment(trx: Trx, environmentNumber: number): Promise<void> {
  await callEnvironmentLock(trx, 'pg_advisory_xact_lock', environmentNumber);
}

/**
 * Takes the environment's lock for the connection's session, past the end of the
 * transaction: a PostgreSQL fork takes it in the transaction that registers the new
 * environment and holds it until the copy is ready, so a process starting at any moment
 * in between (recovery.ts) finds the fork's lock taken. Released by `releaseEnvironmentLock`
 * on the same connection, or when the connection ends (the process died).
 */
export async function holdEnvironmentLock(trx: Trx, environmentNumber: number): Promise<void> {
  await callEnvironmentLock(trx, 'pg_advisory_lock', environmentNumber);
}

export async function releaseEnvironmentLock(db: Db, environmentNumber: number): Promise<void> {
  await callEnvironmentLock(db, 'pg_advisory_unlock', environmentNumber);
}

/**
 * Inside a record change, makes every other record change naming one of `keys` wait for
 * this one to commit: what record writes must exclude among themselves (a unique value, a
 * client-chosen id, a model's singleton or positions). The keys are hashed to advisory
 * locks of the single-key space (the environment locks use the two-key one), taken in
 * sorted order so two changes naming the same keys cannot deadlock on them; a collision
 * of hashes only makes a change wait. No-op for an empty list.
 */
export async function excludeRecordKeys(db: EnvQueryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const schemaName = schemaOf(db);
  if (schemaName === undefined) throw new Error('excludeRecordKeys needs a scoped handle');
  const named = [...new Set(keys.map((key) => `${schemaName}:${key}`))].sort();
  await sql`
    SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest(${named}::text[]) AS key
  `.execute(db);
}
