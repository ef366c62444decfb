import type { Db } from '../../db/client.ts';
import { dropEnvironmentSchema } from '../../db/environment-copy.ts';
import { lockEnvironment } from '../../db/environment-locks.ts';
import { environmentRef } from '../../db/environment-scope.ts';
import type { EnvironmentRow } from '../../db/schema.ts';
import { recordEvent } from '../../events/outbox.ts';
import { assertReaches, type EnvironmentsAccess } from '../auth/environment-reach.ts';
import { dropRolePermissions } from '../auth/role-environments.ts';
import { DomainError } from '../errors.ts';
import { findRowOrFail, lockEnvironments } from './environment-rows.ts';

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
