import { sql } from 'kysely';
import type { Db } from '../../../db/client.ts';
import { lockEnvironment } from '../../../db/environment-locks.ts';
import {
  type EnvironmentRef,
  isVanishedEnvironmentError,
  qualifiedTable,
} from '../../../db/environment-scope.ts';
import { throughWriteGate } from '../../../db/environment-write-gate.ts';

// Record versions' retention: a version older than the retention period is deleted,
// unless it is its record's current or published version; then the parts (version-
// values.ts) no version of those records names any more. A batch runs under the
// environment's lock, as every write does: a save that names an existing part (the
// unchanged value it does not copy again) can never meet the delete of that part.

/** Versions one batch deletes at most: the environment's lock is held briefly. */
export const VERSION_PRUNE_BATCH = 200;

/**
 * Deletes up to `limit` versions of the environment saved more than `retentionDays` ago
 * (never a record's current or published version) and the parts left unnamed. Returns
 * how many versions it deleted; 0 when the environment is gone meanwhile.
 */
export async function pruneVersions(
  db: Db,
  environment: EnvironmentRef,
  retentionDays: number,
  limit = VERSION_PRUNE_BATCH,
): Promise<number> {
  const schema = environment.schemaName;
  try {
    return await throughWriteGate(db, environment.number, () =>
      db.transaction().execute(async (trx) => {
        await lockEnvironment(trx, environment.number);
        const { rows } = await sql<{ item_id: string; deleted: number }>`
          WITH doomed AS (
            SELECT v.id FROM ${qualifiedTable(schema, 'item_versions')} v
            WHERE v.created_at < now() - make_interval(days => ${retentionDays})
              AND NOT EXISTS (
                SELECT FROM ${qualifiedTable(schema, 'items')} i
                WHERE i.id = v.item_id
                  AND (i.current_version_id = v.id OR i.published_version_id = v.id)
              )
            ORDER BY v.created_at
            LIMIT ${limit}
          ), deleted AS (
            DELETE FROM ${qualifiedTable(schema, 'item_versions')} v USING doomed WHERE v.id = doomed.id
            RETURNING v.item_id
          )
          SELECT item_id, count(*)::integer AS deleted FROM deleted GROUP BY item_id
        `.execute(trx);
        if (rows.length === 0) return 0;
        await sql`
          DELETE FROM ${qualifiedTable(schema, 'item_version_parts')} p
          WHERE p.item_id = any(${rows.map((row) => row.item_id)}::text[])
            AND NOT EXISTS (
              SELECT FROM ${qualifiedTable(schema, 'item_versions')} v
              WHERE v.item_id = p.item_id AND p.hash = any(v.part_hashes)
            )
        `.execute(trx);
        return rows.reduce((sum, row) => sum + row.deleted, 0);
      }),
    );
  } catch (error) {
    if (isVanishedEnvironmentError(error)) return 0;
    throw error;
  }
}
