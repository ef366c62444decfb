import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from '../../src/db/client.ts';
import { lockEnvironment } from '../../src/db/environment-locks.ts';
import {
  environmentRef,
  type ScopedTransaction,
  scopedTransaction,
} from '../../src/db/environment-scope.ts';
import { ENVIRONMENT_LOCK_KEY } from '../../src/db/lock-keys.ts';
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

/**
 * Whether any session of the database waits for a lock of any kind (a row's, whose lock has
 * no database, an advisory one, …).
 */
async function someoneWaitsForAnyLock(db: Db): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`
    SELECT count(*)::int AS waiting FROM pg_locks AS l
    WHERE NOT l.granted
      AND l.pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())
  `.execute(db);
  return (rows[0]?.waiting ?? 0) > 0;
}

/**
 * Runs `change` in a transaction on the primary environment's tables and, before it
 * commits, starts `request`; once the request waits for a lock the change holds (on
 * PostgreSQL; the embedded engine's one connection makes it wait for the whole
 * transaction), commits. What the request then does is what it does when a concurrent
 * change commits first. Resolves or rejects as the request does.
 */
export async function raceAChange<T>(
  db: Db,
  change: (tx: ScopedTransaction) => Promise<void>,
  request: () => Promise<T>,
): Promise<T> {
  const environment = await db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name', 'is_primary'])
    .where('is_primary', '=', true)
    .executeTakeFirstOrThrow();
  let started: Promise<T> | undefined;
  await db.transaction().execute(async (trx) => {
    await change(scopedTransaction(trx, environmentRef(environment)));
    let settled: string | undefined;
    started = request();
    started.then(
      () => {
        settled = 'succeeded';
      },
      (error) => {
        settled = `failed: ${String(error)}`;
      },
    );
    if (TEST_ENGINE === 'postgres') {
      for (let tries = 0; !(await someoneWaitsForAnyLock(db)); tries++) {
        assert.ok(settled === undefined, `the request ${settled} without waiting for the change`);
        assert.ok(tries < 2000, 'the request never waited for the change');
        await sleep(5);
      }
    }
  });
  if (!started) throw new Error('the request was not started');
  return started;
}

/**
 * PostgreSQL: whether `request` completes while a transaction holding `hold`'s locks stays
 * open (true), or waits for one of them (false). The transaction is then rolled back.
 */
export async function completesBeside(
  db: Db,
  hold: (tx: ScopedTransaction) => Promise<void>,
  request: () => Promise<unknown>,
): Promise<boolean> {
  const environment = await db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name', 'is_primary'])
    .where('is_primary', '=', true)
    .executeTakeFirstOrThrow();
  let completed = false;
  let waited = false;
  let pending: Promise<unknown> | undefined;
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await hold(scopedTransaction(trx, environmentRef(environment)));
      pending = request().then(() => {
        completed = true;
      });
      pending.catch(() => {});
      while (!completed && !waited) {
        waited = await someoneWaitsForAnyLock(db);
        await sleep(5);
      }
      throw new Error('roll back');
    }),
    /roll back/,
  );
  await pending;
  return completed && !waited;
}
