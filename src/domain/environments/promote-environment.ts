import type { Db } from '../../db/client.ts';
import { lockEnvironment } from '../../db/environment-locks.ts';
import { environmentRef } from '../../db/environment-scope.ts';
import type { EnvironmentRow } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { assertReaches, type EnvironmentsAccess } from '../auth/environment-reach.ts';
import { DomainError } from '../errors.ts';
import { findRowOrFail, lockEnvironments } from './environment-rows.ts';
import { primaryEnvironment } from './primary.ts';

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
