import type { Db } from '../../db/client.ts';
import type { Storage } from '../../storage/storage.ts';
import { storageKey } from './paths.ts';

/** Paths handled per transaction: a pass holds their rows locked while it deletes bytes. */
export const SWEEP_BATCH = 50;

/** How long after its URL expired an unused upload request's bytes are kept. */
export const UNUSED_REQUEST_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the bytes of up to SWEEP_BATCH paths no upload names in any environment
 * (`upload_objects.refs` = 0), then their rows. The rows stay locked while the bytes go,
 * and a path at zero never gains a reference again (paths are never handed out twice),
 * so bytes still named are never deleted; a crash before the commit leaves the rows, and
 * the next pass deletes again (deleting missing bytes is no error). Returns how many.
 */
export async function sweepUnreferencedBytes(db: Db, storage: Storage): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('upload_objects')
      .select('path')
      .where('refs', '=', 0)
      .orderBy('path')
      .limit(SWEEP_BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    const paths = rows.map((row) => row.path);
    for (const path of paths) await storage.delete(storageKey(path));
    if (paths.length > 0) {
      await trx
        .deleteFrom('upload_objects')
        .where('path', 'in', paths)
        .where('refs', '=', 0)
        .execute();
    }
    return paths.length;
  });
}

/**
 * Deletes the bytes and rows of up to SWEEP_BATCH upload requests no upload consumed,
 * a day after their URL expired (a PUT that began in time has ended by then). The rows
 * stay locked while the bytes go: a create or replace consuming one waits, then finds it
 * gone and is refused, so no upload ever names bytes this deleted. Returns how many.
 */
export async function sweepUnusedRequests(db: Db, storage: Storage, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - UNUSED_REQUEST_GRACE_MS);
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('upload_requests')
      .select('path')
      .where('consumed_at', 'is', null)
      .where('expires_at', '<', cutoff)
      .orderBy('expires_at')
      .limit(SWEEP_BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    const paths = rows.map((row) => row.path);
    for (const path of paths) await storage.delete(storageKey(path));
    if (paths.length > 0) {
      await trx
        .deleteFrom('upload_requests')
        .where('path', 'in', paths)
        .where('consumed_at', 'is', null)
        .execute();
    }
    return paths.length;
  });
}
