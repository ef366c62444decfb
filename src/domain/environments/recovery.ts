import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { dropEnvironmentSchema } from '../../db/environment-copy.ts';
import { ENVIRONMENT_LOCK_KEY } from '../../db/lock-keys.ts';
import { dropRolePermissions } from '../auth/role-environments.ts';

export type RecoveryLog = (message: string) => void;

/**
 * At start: a fork whose process died (kill -9, power loss) left a `creating` row and
 * maybe a partial schema (its copy transaction rolled back, but the schema of an
 * embedded database or a row registered before the copy stays). Nobody holds such a
 * fork's lock, so it is removed with its role permission entries, and said so; a fork
 * another process is still copying holds its lock and is left alone. Sources a dead `fast` fork left read-only are
 * released. Returns the ids removed.
 */
export async function removeInterruptedForks(db: Db, log: RecoveryLog): Promise<string[]> {
  const creating = await db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name'])
    .where('status', '=', 'creating')
    .execute();
  const removed: string[] = [];
  for (const row of creating) {
    const gone = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`
        SELECT pg_try_advisory_xact_lock(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(row.number)}) AS locked
      `.execute(trx);
      if (!rows[0]?.locked) return false;
      // The list was read before the lock: the fork may have finished (and released its
      // lock) in between. Only a row still `creating` under the lock was interrupted.
      const still = await trx
        .selectFrom('environments')
        .select('number')
        .where('number', '=', row.number)
        .where('status', '=', 'creating')
        .forUpdate()
        .executeTakeFirst();
      if (!still) return false;
      await dropEnvironmentSchema(trx, row.schema_name);
      await trx.deleteFrom('environments').where('number', '=', row.number).execute();
      // The fork gave every role entries for it when it registered: they go with it.
      await dropRolePermissions(trx, row.id);
      return true;
    });
    if (gone) {
      removed.push(row.id);
      log(`removed environment "${row.id}": its fork was interrupted before it completed`);
    }
  }
  await db
    .updateTable('environments')
    .set({ read_only_mode: false })
    .where('read_only_mode', '=', true)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('environments as fork')
            .select('fork.id')
            .whereRef('fork.forked_from', '=', 'environments.id')
            .where('fork.status', '=', 'creating'),
        ),
      ),
    )
    .execute();
  return removed;
}
