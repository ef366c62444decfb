import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { emitUploadEvent } from '../../events/upload-events.ts';
import type { Actor } from '../actor.ts';
import { collectionExists } from '../upload-collections/lineage.ts';
import { assertMayOnUpload } from './authorization.ts';
import { type BulkOutcome, lockedBulkTargets } from './bulk-targets.ts';
import { uploadOwner } from './owner.ts';
import { saveUpload } from './repo.ts';
import { unknownCollection } from './stored-file.ts';
import { uploadFromRow } from './upload.ts';
import type { UploadSettings } from './upload-settings.ts';

/**
 * Puts every named upload in the collection (null: none), in one transaction: each needs
 * the role's `move` permission out of where it is and into the collection, or nothing
 * changes. Each upload moved gets its `upload/update` event.
 */
export async function bulkMoveUploads(
  scope: Scope,
  actor: Actor,
  settings: UploadSettings,
  input: { uploadIds: readonly string[]; uploadCollectionId: string | null },
): Promise<BulkOutcome> {
  const target = input.uploadCollectionId;
  return inEnvironmentTransaction(scope, async (tx) => {
    if (!(await collectionExists(tx.db, target))) throw unknownCollection();
    const uploads = await lockedBulkTargets(tx, input.uploadIds);
    const environmentId = tx.environment.id;
    for (const upload of uploads) {
      assertMayOnUpload(actor, environmentId, 'move', await uploadOwner(tx, upload));
      const moved = { ...upload, uploadCollectionId: target };
      assertMayOnUpload(actor, environmentId, 'move', await uploadOwner(tx, moved));
    }
    for (const upload of uploads) {
      if (upload.uploadCollectionId === target) continue;
      const moved = { ...upload, uploadCollectionId: target, updatedAt: new Date() };
      const saved = uploadFromRow(await saveUpload(tx.db, moved));
      await emitUploadEvent(tx, 'update', saved, settings.assetsBase(), upload);
    }
    return { successful: uploads.length, failed: 0 };
  });
}
