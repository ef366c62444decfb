import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { copyEnvironment, dropEnvironmentSchema } from '../../db/environment-copy.ts';
import { environmentRef, lockEnvironment, schemaNameOf } from '../../db/environment-scope.ts';
import type { EnvironmentRow } from '../../db/schema.ts';
import type { Trx } from '../../db/transaction.ts';
import { recordEvent } from '../../events/outbox.ts';
import { type EnvironmentResource, presentEnvironment } from '../../presenters/environment.ts';
import {
  copyRolePermissions,
  dropRolePermissions,
  renameRolePermissions,
} from '../auth/role-environments.ts';
import { DomainError, Issues, NotFound, uniquenessFailure } from '../errors.ts';
import { rethrowUniqueness } from '../uniqueness.ts';

// Serialises the project's environment operations (fork registration, promote, rename,
// destroy) with each other: they touch several environment rows at once.
const ENVIRONMENTS_LOCK_KEY = 7_246_002;

const ENVIRONMENT_ID = /^[a-z0-9][a-z0-9-]*$/;
const MAX_ENVIRONMENT_ID_LENGTH = 64;

async function lockEnvironments(trx: Trx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(ENVIRONMENTS_LOCK_KEY)})`.execute(trx);
}

export async function listEnvironments(db: Db): Promise<EnvironmentResource[]> {
  const rows = await db
    .selectFrom('environments')
    .selectAll()
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .orderBy('number')
    .execute();
  return rows.map(presentEnvironment);
}

async function findRow(db: Db | Trx, id: string): Promise<EnvironmentRow | undefined> {
  return db.selectFrom('environments').selectAll().where('id', '=', id).executeTakeFirst();
}

async function findRowOrFail(db: Db | Trx, id: string): Promise<EnvironmentRow> {
  const row = await findRow(db, id);
  if (!row) throw new NotFound('Environment', id);
  return row;
}

export async function findEnvironment(db: Db, id: string): Promise<EnvironmentResource> {
  return presentEnvironment(await findRowOrFail(db, id));
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

export type ForkOptions = { fast: boolean };

export type StartedFork = {
  /** The new environment, `creating`. */
  environment: EnvironmentResource;
  /** Settles when the copy is ready (or has failed and been removed). */
  completion: Promise<EnvironmentResource>;
};

/**
 * Registers the new environment (`creating`) at once, then copies the source in one
 * REPEATABLE READ transaction that holds the new environment's lock: every table is
 * read from one snapshot while writes to the source go on. A `fast` fork makes the
 * source read-only until the copy ends. A failed copy leaves nothing behind.
 */
export async function startFork(
  db: Db,
  sourceId: string,
  newId: string,
  options: ForkOptions,
): Promise<StartedFork> {
  checkNewEnvironmentId(newId);
  let created: EnvironmentRow;
  let source: EnvironmentRow;
  try {
    ({ created, source } = await db.transaction().execute(async (trx) => {
      await lockEnvironments(trx);
      const sourceRow = await findRowOrFail(trx, sourceId);
      if (sourceRow.status !== 'ready') {
        throw new DomainError('ENVIRONMENT_NOT_READY', `Environment "${sourceId}" is not ready`);
      }
      await checkIdFree(trx, newId);
      const { rows } = await sql<{ number: number }>`
        SELECT nextval('environment_number_seq')::integer AS number
      `.execute(trx);
      const number = rows[0]?.number;
      if (number === undefined) throw new Error('environment_number_seq returned nothing');
      const row = await trx
        .insertInto('environments')
        .values({
          id: newId,
          number,
          schema_name: schemaNameOf(number),
          is_primary: false,
          status: 'creating',
          forked_from: sourceRow.id,
          fork_completion_percentage: 0,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (options.fast) {
        await trx
          .updateTable('environments')
          .set({ read_only_mode: true })
          .where('number', '=', sourceRow.number)
          .execute();
      }
      await copyRolePermissions(trx, sourceRow.id, newId);
      return { created: row, source: sourceRow };
    }));
  } catch (error) {
    rethrowUniqueness(error);
  }
  const completion = copyInto(db, source, created, options);
  return { environment: presentEnvironment(created), completion };
}

async function copyInto(
  db: Db,
  source: EnvironmentRow,
  target: EnvironmentRow,
  options: ForkOptions,
): Promise<EnvironmentResource> {
  try {
    return await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await lockEnvironment(trx, target.number);
        await copyEnvironment(trx, source.schema_name, target.schema_name);
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
        const environment = presentEnvironment(ready);
        await recordEvent(trx, environmentRef(ready), {
          entityType: 'environment',
          eventType: 'create',
          entity: environment,
        });
        return environment;
      });
  } catch (error) {
    await removeEnvironment(db, target);
    throw error;
  } finally {
    if (options.fast) await endReadOnly(db, source);
  }
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

/** The sandbox becomes the primary and the primary a sandbox, in one transaction. */
export async function promoteEnvironment(db: Db, id: string): Promise<EnvironmentResource> {
  return db.transaction().execute(async (trx) => {
    await lockEnvironments(trx);
    const target = await findRowOrFail(trx, id);
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
    const environment = presentEnvironment(promoted);
    await recordEvent(trx, environmentRef(promoted), {
      entityType: 'environment',
      eventType: 'promote',
      entity: environment,
    });
    return environment;
  });
}

export async function renameEnvironment(
  db: Db,
  id: string,
  newId: string,
): Promise<EnvironmentResource> {
  checkNewEnvironmentId(newId);
  try {
    return await db.transaction().execute(async (trx) => {
      await lockEnvironments(trx);
      const target = await findRowOrFail(trx, id);
      if (newId === target.id) return presentEnvironment(target);
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
      return presentEnvironment(renamed);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/**
 * Removes a sandbox and all it holds. Under the environment's lock, so a change in
 * progress there finishes first; later ones find the environment gone.
 */
export async function destroyEnvironment(db: Db, id: string): Promise<EnvironmentResource> {
  return db.transaction().execute(async (trx) => {
    await lockEnvironments(trx);
    const target = await findRowOrFail(trx, id);
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
    const environment = presentEnvironment(target);
    await recordEvent(trx, environmentRef(target), {
      entityType: 'environment',
      eventType: 'delete',
      entity: environment,
    });
    return environment;
  });
}
