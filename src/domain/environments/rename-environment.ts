import type { Db } from '../../db/client.ts';
import { lockEnvironment } from '../../db/environment-locks.ts';
import { environmentRef } from '../../db/environment-scope.ts';
import type { EnvironmentRow } from '../../db/schema.ts';
import { assertReaches, type EnvironmentsAccess } from '../auth/environment-reach.ts';
import { renameRolePermissions } from '../auth/role-environments.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import { checkIdFree, checkNewEnvironmentId } from './environment-ids.ts';
import { findRowOrFail, lockEnvironments } from './environment-rows.ts';

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
