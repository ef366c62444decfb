import type { Db } from '../../db/client.ts';
import { recordEvent } from '../../events/outbox.ts';
import { assertReaches, type EnvironmentsAccess } from '../auth/environment-reach.ts';
import { primaryEnvironment } from './primary.ts';

export async function findMaintenanceMode(db: Db): Promise<boolean> {
  const site = await db.selectFrom('site').select('maintenance_mode').executeTakeFirstOrThrow();
  return site.maintenance_mode;
}

/**
 * Turns maintenance mode on or off: while on, writes to the primary environment are
 * refused (the scoped transaction checks it under the environment's lock). A change
 * is an event of the primary; setting the current value again changes nothing. It acts
 * on the primary, so the caller's role must reach the primary.
 */
export async function setMaintenanceMode(
  db: Db,
  access: EnvironmentsAccess,
  active: boolean,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const primary = await primaryEnvironment(trx);
    assertReaches(access, primary);
    const before = await trx
      .selectFrom('site')
      .select(['id', 'maintenance_mode'])
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (before.maintenance_mode === active) return active;
    await trx
      .updateTable('site')
      .set({ maintenance_mode: active })
      .where('id', '=', before.id)
      .execute();
    await recordEvent(trx, primary, {
      entityType: 'maintenance_mode',
      eventType: 'change',
      active,
    });
    return active;
  });
}
