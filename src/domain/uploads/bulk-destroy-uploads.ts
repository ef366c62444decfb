import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { emitUploadEvent } from '../../events/upload-events.ts';
import type { Actor } from '../actor.ts';
import { assertMayOnUpload } from './authorization.ts';
import { type BulkOutcome, lockedBulkTargets } from './bulk-targets.ts';
import { uploadOwner } from './owner.ts';
import { deleteUploads } from './repo.ts';
import type { UploadSettings } from './upload-settings.ts';

/**
 * Destroys every named upload in one transaction, as `DELETE /uploads/:id` would each:
 * each needs the role's `delete` permission, or none is destroyed. Each gets its
 * `upload/delete` event.
 */
export async function bulkDestroyUploads(
  scope: Scope,
  actor: Actor,
  settings: UploadSettings,
  uploadIds: readonly string[],
): Promise<BulkOutcome> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const uploads = await lockedBulkTargets(tx, uploadIds);
    for (const upload of uploads) {
      assertMayOnUpload(actor, tx.environment.id, 'delete', await uploadOwner(tx, upload));
    }
    await deleteUploads(
      tx.db,
      uploads.map((upload) => upload.id),
    );
    for (const upload of uploads) {
      await emitUploadEvent(tx, 'delete', upload, settings.assetsBase());
    }
    return { successful: uploads.length, failed: 0 };
  });
}
