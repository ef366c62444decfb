import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { dropEnvironmentSchema, EnvironmentCopy } from '../../db/environment-copy.ts';
import {
  holdEnvironmentLock,
  lockEnvironment,
  releaseEnvironmentLock,
} from '../../db/environment-locks.ts';
import { environmentRef, schemaNameOf } from '../../db/environment-scope.ts';
import { closeWriteGate } from '../../db/environment-write-gate.ts';
import type { EnvironmentRow } from '../../db/schema.ts';
import type { Trx } from '../../db/transaction.ts';
import { recordEvent } from '../../events/outbox.ts';
import { assertReaches, type EnvironmentsAccess } from '../auth/environment-reach.ts';
import { copyRolePermissions, dropRolePermissions } from '../auth/role-environments.ts';
import { DomainError } from '../errors.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import { checkIdFree, checkNewEnvironmentId } from './environment-ids.ts';
import { findRowOrFail, lockEnvironments } from './environment-rows.ts';

export type ForkOptions = {
  fast: boolean;
  /** PostgreSQL copies in one transaction; the embedded engine in short steps. */
  engine: 'embedded' | 'postgres';
};

/** A fork as the caller asked for it, with the caller's role's environments_access. */
type ForkRequest = ForkOptions & { access: EnvironmentsAccess; sourceId: string; newId: string };

// Rows per copy step. Embedded, each step is a transaction every other request waits
// for on the one connection, so steps stay short: ~0.1 s on a loaded 2-core machine
// (docs/environments.md has the figures; 500 rows made the fork slower, 2,000 reads);
// on PostgreSQL the steps share one transaction and only pace the progress figure.
const CHUNK_ROWS = { embedded: 1_000, postgres: 10_000 } as const;

export type StartedFork = {
  /** The new environment, `creating`. */
  environment: EnvironmentRow;
  /** Settles when the copy is ready (or has failed and been removed). */
  completion: Promise<EnvironmentRow>;
};

type Registered = { created: EnvironmentRow; source: EnvironmentRow };

/**
 * Registers the new environment (`creating`) at once, then copies the source, one
 * consistent snapshot of it, and marks the copy ready. A `fast` fork makes the source
 * read-only until the copy ends. A failed copy leaves nothing behind. The caller's role
 * (`access`) must reach the source and the new sandbox.
 */
export async function startFork(
  db: Db,
  access: EnvironmentsAccess,
  sourceId: string,
  newId: string,
  options: ForkOptions,
): Promise<StartedFork> {
  checkNewEnvironmentId(newId);
  const request = { access, sourceId, newId, ...options };
  return options.engine === 'postgres'
    ? forkInOneTransaction(db, request)
    : forkInSteps(db, request);
}

/**
 * PostgreSQL: one REPEATABLE READ transaction reads every table from one snapshot while
 * writes to the source go on, and other requests use other connections. The whole fork
 * runs on one connection that holds the new environment's lock for its session from the
 * registering transaction on, so no process starting meanwhile takes the fork for an
 * interrupted one. The progress figure is written from another connection: the copy's
 * own writes are invisible until it commits.
 */
async function forkInOneTransaction(db: Db, options: ForkRequest): Promise<StartedFork> {
  let settle: { resolve(value: Registered): void; reject(error: unknown): void } | undefined;
  const registered = new Promise<Registered>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const completion = db.connection().execute(async (conn) => {
    let registration: Registered;
    try {
      registration = await register(conn, options, true);
    } catch (error) {
      settle?.reject(error);
      throw error;
    }
    settle?.resolve(registration);
    const { created, source } = registration;
    try {
      await conn
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          const copy = new EnvironmentCopy(
            source.schema_name,
            created.schema_name,
            CHUNK_ROWS.postgres,
          );
          while (!copy.done) {
            await copy.step(trx);
            reportProgress(db, created.number, copy.percentage);
          }
        });
      return await conn.transaction().execute((trx) => markReady(trx, created));
    } catch (error) {
      await removeEnvironment(conn, created);
      throw error;
    } finally {
      if (options.fast) await endReadOnly(conn, source);
      await releaseEnvironmentLock(conn, created.number);
    }
  });
  try {
    const { created } = await registered;
    return { environment: created, completion };
  } catch (error) {
    completion.catch(() => {}); // the same error, thrown here
    throw error;
  }
}

/** Advisory and monotonic: a late figure never lowers one, nor touches a ready copy. */
function reportProgress(db: Db, environmentNumber: number, percentage: number): void {
  db.updateTable('environments')
    .set({ fork_completion_percentage: percentage })
    .where('number', '=', environmentNumber)
    .where('status', '=', 'creating')
    .where('fork_completion_percentage', '<', percentage)
    .execute()
    .catch(() => {}); // a lost figure is corrected by the next one
}

/**
 * Embedded: PGlite is one connection, so one long copy transaction would make every
 * request in every environment wait for the whole fork. The copy runs in short steps
 * instead, each its own transaction that also records the progress figure, and other
 * requests run between steps. The source's write gate stays closed meanwhile (a `fast`
 * fork refuses writes instead), so nothing changes the source between two steps and
 * the copy is still one snapshot; reads of the source go on. A crash between steps
 * leaves a `creating` environment, removed at the next start (recovery.ts).
 */
async function forkInSteps(db: Db, options: ForkRequest): Promise<StartedFork> {
  const { created, source } = await register(db, options, false);
  const completion = (async () => {
    const reopen = options.fast ? () => {} : await closeWriteGate(db, source.number);
    try {
      const copy = new EnvironmentCopy(
        source.schema_name,
        created.schema_name,
        CHUNK_ROWS.embedded,
      );
      while (!copy.done) {
        await db.transaction().execute(async (trx) => {
          await copy.step(trx);
          await trx
            .updateTable('environments')
            .set({ fork_completion_percentage: copy.percentage })
            .where('number', '=', created.number)
            .execute();
        });
        await yieldToEventLoop();
      }
      return await db.transaction().execute((trx) => markReady(trx, created));
    } catch (error) {
      await removeEnvironment(db, created);
      throw error;
    } finally {
      reopen();
      if (options.fast) await endReadOnly(db, source);
    }
  })();
  return { environment: created, completion };
}

/**
 * PGlite answers synchronously inside promise callbacks, so a loop of queries never
 * returns to the event loop: sockets are not read and timers do not fire until the loop
 * ends (measured: a read waited for the whole fork). Between two steps the event loop
 * turns a few times, so requests that arrived meanwhile are read, reach the pool first
 * (it serves waiters in order) and mostly finish before the next step: one turn left
 * reads waiting ~2 steps, three ~1 step or none (docs/environments.md).
 */
async function yieldToEventLoop(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Commits the new environment's row, `creating`, and the source's read-only mode for a
 * `fast` fork. `holdLock`: the new environment's lock is taken for
 * the session before the row is visible to anyone.
 */
async function register(db: Db, options: ForkRequest, holdLock: boolean): Promise<Registered> {
  const { access, sourceId, newId } = options;
  try {
    return await db.transaction().execute(async (trx) => {
      await lockEnvironments(trx);
      const source = await findRowOrFail(trx, sourceId);
      assertReaches(access, environmentRef(source));
      assertReaches(access, { id: newId, isPrimary: false });
      if (source.status !== 'ready') {
        throw new DomainError('ENVIRONMENT_NOT_READY', `Environment "${sourceId}" is not ready`);
      }
      await checkIdFree(trx, newId);
      const { rows } = await sql<{ number: number }>`
        SELECT nextval('environment_number_seq')::integer AS number
      `.execute(trx);
      const number = rows[0]?.number;
      if (number === undefined) throw new Error('environment_number_seq returned nothing');
      const created = await trx
        .insertInto('environments')
        .values({
          id: newId,
          number,
          schema_name: schemaNameOf(number),
          is_primary: false,
          status: 'creating',
          forked_from: source.id,
          fork_completion_percentage: 0,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (options.fast) {
        await trx
          .updateTable('environments')
          .set({ read_only_mode: true })
          .where('number', '=', source.number)
          .execute();
      }
      await copyRolePermissions(trx, source.id, newId);
      // Last: a session lock outlives a rollback, and only the commit follows it.
      if (holdLock) await holdEnvironmentLock(trx, number);
      return { created, source };
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

async function markReady(trx: Trx, target: EnvironmentRow): Promise<EnvironmentRow> {
  const ready = await trx
    .updateTable('environments')
    .set({
      status: 'ready',
      fork_completion_percentage: 100,
      last_data_change_at: sql<Date>`now()`,
    })
    .where('number', '=', target.number)
    .returningAll()
    .executeTakeFirstOrThrow();
  const environment = ready;
  await recordEvent(trx, environmentRef(ready), {
    entityType: 'environment',
    eventType: 'create',
    environment,
  });
  return environment;
}

async function endReadOnly(db: Db, source: EnvironmentRow): Promise<void> {
  await db
    .updateTable('environments')
    .set({ read_only_mode: false })
    .where('number', '=', source.number)
    .execute();
}

/** Drops an environment's schema and row in one transaction (a failed or abandoned fork). */
export async function removeEnvironment(db: Db, row: EnvironmentRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockEnvironment(trx, row.number);
    await dropEnvironmentSchema(trx, row.schema_name);
    await trx.deleteFrom('environments').where('number', '=', row.number).execute();
    await dropRolePermissions(trx, row.id);
  });
}
