import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { emitUploadEvent } from '../../events/upload-events.ts';
import type { Actor } from '../actor.ts';
import { assertMayOnUpload } from './authorization.ts';
import { type BulkOutcome, lockedBulkTargets } from './bulk-targets.ts';
import { normalizedTags } from './metadata-input.ts';
import { uploadOwner } from './owner.ts';
import { saveUpload } from './repo.ts';
import { uploadFromRow } from './upload.ts';
import type { UploadSettings } from './upload-settings.ts';

/**
 * Adds the tags to every named upload (after the ones it has, without repeats), in one
 * transaction: each upload needs the role's `update` permission for unlocalized
 * metadata, or nothing changes. Each upload changed gets its `upload/update` event.
 */
export async function bulkTagUploads(
  scope: Scope,
  actor: Actor,
  settings: UploadSettings,
  input: { uploadIds: readonly string[]; tags: readonly string[] },
): Promise<BulkOutcome> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const uploads = await lockedBulkTargets(tx, input.uploadIds);
    const reach = { localizedLocales: [], notLocalized: true };
    for (const upload of uploads) {
      const owner = await uploadOwner(tx, upload);
      assertMayOnUpload(actor, tx.environment.id, 'update', owner, reach);
    }
    for (const upload of uploads) {
      const tags = normalizedTags([...upload.tags, ...input.tags]);
      if (tags.length === upload.tags.length) continue;
      const saved = uploadFromRow(
        await saveUpload(tx.db, { ...upload, tags, updatedAt: new Date() }),
      );
      await emitUploadEvent(tx, 'update', saved, settings.assetsBase(), upload);
    }
    return { successful: uploads.length, failed: 0 };
  });
}
