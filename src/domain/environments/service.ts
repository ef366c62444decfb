import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { dropEnvironmentSchema, EnvironmentCopy } from '../../db/environment-copy.ts';
import {
  environmentRef,
  holdEnvironmentLock,
  lockEnvironment,
  releaseEnvironmentLock,
  schemaNameOf,
} from '../../db/environment-scope.ts';
import { closeWriteGate } from '../../db/environment-write-gate.ts';
import { ENVIRONMENTS_LOCK_KEY } from '../../db/lock-keys.ts';
import type { EnvironmentRow } from '../../db/schema.ts';
import type { Trx } from '../../db/transaction.ts';
import { recordEvent } from '../../events/outbox.ts';
import { assertReaches, type EnvironmentsAccess } from '../auth/environment-reach.ts';
import {
  copyRolePermissions,
  dropRolePermissions,
  renameRolePermissions,
} from '../auth/role-environments.ts';
import { DomainError, Issues, NotFound, uniquenessFailure } from '../errors.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import { primaryEnvironment } from './primary.ts';

const ENVIRONMENT_ID = /^[a-z0-9][a-z0-9-]*$/;
const MAX_ENVIRONMENT_ID_LENGTH = 64;

async function lockEnvironments(trx: Trx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(ENVIRONMENTS_LOCK_KEY)})`.execute(trx);
}

/**
 * Environment rows as presented: a record write stamps its records-version slot rather than
 * the environment's row (project migration 0016), so the last data change is the later of
 * the row's stamp and its slots'.
 */
function environmentRows(db: Db | Trx) {
  return db.selectFrom('environments').select([
    'id',
    'number',
    'schema_name',
    'is_primary',
    'status',
    'forked_from',
    'read_only_mode',
    'fork_completion_percentage',
    'created_at',
    'schema_version',
    sql<Date>`greatest(environments.last_data_change_at, (
        SELECT max(v.changed_at) FROM environment_records_versions AS v
        WHERE v.schema_name = environments.schema_name))`.as('last_data_change_at'),
  ]);
}

export async function listEnvironments(db: Db): Promise<EnvironmentRow[]> {
  const rows = await environmentRows(db)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .orderBy('number')
    .execute();
  return rows;
}

async function findRow(db: Db | Trx, id: string): Promise<EnvironmentRow | undefined> {
  return environmentRows(db).where('id', '=', id).executeTakeFirst();
}

async function findRowOrFail(db: Db | Trx, id: string): Promise<EnvironmentRow> {
  const row = await findRow(db, id);
  if (!row) throw new NotFound('Environment', id);
  return row;
}

export async function findEnvironment(db: Db, id: string): Promise<EnvironmentRow> {
  return await findRowOrFail(db, id);
}

/** A new environment id: the CLI reads a clash as INVALID_FIELD on `name`. */
function checkNewEnvironmentId(id: string): void {
  const issues = new Issues('Environment');
  if (id.length > MAX_ENVIRONMENT_ID_LENGTH)
    issues.add(
      'name',
      'VALIDATION_LENGTH',
      `must be at most ${MAX_ENVIRONMENT_ID_LENGTH} characters`,
    );
  else if (!ENVIRONMENT_ID.test(id))
    issues.add('name', 'VALIDATION_FORMAT', 'must be lowercase letters, digits and dashes');
  issues.throwIfAny();
}

async function checkIdFree(trx: Trx, id: string): Promise<void> {
  if (await findRow(trx, id)) throw uniquenessFailure('Environment', 'name');
}

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

/**
 * The sandbox becomes the primary and the primary a sandbox, in one transaction. The
 * caller's role must reach both.
 */
export async function promoteEnvironment(
  db: Db,
  access: EnvironmentsAccess,
  id: string,
): Promise<EnvironmentRow> {
  return db.transaction().execute(async (trx) => {
    await lockEnvironments(trx);
    const target = await findRowOrFail(trx, id);
    assertReaches(access, environmentRef(target));
    const primary = await primaryEnvironment(trx);
    assertReaches(access, primary);
    // Record changes hold their environment's lock shared, not its row: both environments
    // change role, so a change in progress in either finishes first.
    for (const number of [primary.number, target.number].sort((a, b) => a - b))
      await lockEnvironment(trx, number);
    if (target.status !== 'ready') {
      throw new DomainError('ENVIRONMENT_NOT_READY', `Environment "${id}" is not ready`);
    }
    if (target.is_primary) {
      throw new DomainError('ALREADY_PRIMARY_ENVIRONMENT', `Environment "${id}" is the primary`);
    }
    // Two statements: a unique index is checked row by row, so the old primary steps
    // down before the new one steps up. The partial unique index keeps it at one.
    await trx
      .updateTable('environments')
      .set({ is_primary: false })
      .where('is_primary', '=', true)
      .execute();
    const promoted = await trx
      .updateTable('environments')
      .set({ is_primary: true })
      .where('number', '=', target.number)
      .returningAll()
      .executeTakeFirstOrThrow();
    const environment = promoted;
    await recordEvent(trx, environmentRef(promoted), {
      entityType: 'environment',
      eventType: 'promote',
      environment,
    });
    return environment;
  });
}

/** Renames an environment the caller's role reaches; its role entries follow it. */
export async function renameEnvironment(
  db: Db,
  access: EnvironmentsAccess,
  id: string,
  newId: string,
): Promise<EnvironmentRow> {
  checkNewEnvironmentId(newId);
  try {
    return await db.transaction().execute(async (trx) => {
      await lockEnvironments(trx);
      const target = await findRowOrFail(trx, id);
      assertReaches(access, environmentRef(target));
      if (newId === target.id) return target;
      // A change in progress there (which holds the lock shared) finishes under its old id.
      await lockEnvironment(trx, target.number);
      await checkIdFree(trx, newId);
      const renamed = await trx
        .updateTable('environments')
        .set({ id: newId })
        .where('number', '=', target.number)
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('environments')
        .set({ forked_from: newId })
        .where('forked_from', '=', id)
        .execute();
      await renameRolePermissions(trx, id, newId);
      return renamed;
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/**
 * Removes a sandbox the caller's role reaches, and all it holds. Under the environment's
 * lock, so a change in progress there finishes first; later ones find the environment gone.
 */
export async function destroyEnvironment(
  db: Db,
  access: EnvironmentsAccess,
  id: string,
): Promise<EnvironmentRow> {
  return db.transaction().execute(async (trx) => {
    await lockEnvironments(trx);
    const target = await findRowOrFail(trx, id);
    assertReaches(access, environmentRef(target));
    if (target.is_primary) {
      throw new DomainError(
        'CANNOT_DESTROY_PRIMARY_ENVIRONMENT',
        'The primary environment cannot be destroyed',
      );
    }
    if (target.status === 'creating') {
      throw new DomainError('ENVIRONMENT_NOT_READY', `Environment "${id}" is being created`);
    }
    const forking = await trx
      .selectFrom('environments')
      .select('id')
      .where('forked_from', '=', target.id)
      .where('status', '=', 'creating')
      .executeTakeFirst();
    if (forking) {
      throw new DomainError(
        'CANNOT_DESTROY_FORKING_ORIGIN',
        `Environment "${id}" is being forked into "${forking.id}"`,
      );
    }
    await lockEnvironment(trx, target.number);
    await dropEnvironmentSchema(trx, target.schema_name);
    await trx.deleteFrom('environments').where('number', '=', target.number).execute();
    await dropRolePermissions(trx, target.id);
    const environment = target;
    await recordEvent(trx, environmentRef(target), {
      entityType: 'environment',
      eventType: 'delete',
      environment,
    });
    return environment;
  });
}
