import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from '../../src/db/client.ts';
import {
  ENVIRONMENT_LOCK_KEY,
  environmentRef,
  lockEnvironment,
  type ScopedTransaction,
  scopedTransaction,
} from '../../src/db/environment-scope.ts';
import { TEST_ENGINE } from './databases.ts';

/** Whether a session waits for the environment's lock (PostgreSQL: other connections). */
async function someoneWaitsForLock(db: Db, environmentNumber: number): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`
    SELECT count(*)::int AS waiting FROM pg_locks
    WHERE locktype = 'advisory' AND NOT granted
      AND classid = ${sql.lit(ENVIRONMENT_LOCK_KEY)} AND objid = ${sql.lit(environmentNumber)}
  `.execute(db);
  return (rows[0]?.waiting ?? 0) > 0;
}

/**
 * Holds the primary environment's lock, starts `request`, and once the request's change
 * waits for the lock commits `change` (on the environment's tables): what the change sees
 * is what committed just before it, after anything the request read before its transaction.
 * On PostgreSQL the request's connection queues behind the lock; the embedded engine is one
 * connection, so there the request waits for this transaction as a whole, its early reads
 * too. Resolves or rejects as the request does.
 */
export async function raceTheLock<T>(
  db: Db,
  request: () => Promise<T>,
  change: (tx: ScopedTransaction) => Promise<void>,
): Promise<T> {
  const environment = await db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name', 'is_primary'])
    .where('is_primary', '=', true)
    .executeTakeFirstOrThrow();
  let started: Promise<T> | undefined;
  await db.transaction().execute(async (trx) => {
    await lockEnvironment(trx, environment.number);
    started = request();
    // Keep the promise handled: the caller awaits it after the commit.
    started.catch(() => {});
    if (TEST_ENGINE === 'postgres') {
      for (let tries = 0; !(await someoneWaitsForLock(db, environment.number)); tries++) {
        assert.ok(tries < 2000, 'the request never queued behind the lock');
        await sleep(5);
      }
    }
    await change(scopedTransaction(trx, environmentRef(environment)));
  });
  if (!started) throw new Error('the request was not started');
  return started;
}
