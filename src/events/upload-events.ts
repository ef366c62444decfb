import type { ScopedTransaction } from '../db/environment-scope.ts';
import type { Upload } from '../domain/uploads/upload.ts';
import { emitEvent } from './outbox.ts';

/**
 * Records an `upload` event in the change's transaction: the upload as it is after the
 * change (as it was, for a delete), and before it for an update.
 */
export async function emitUploadEvent(
  tx: ScopedTransaction,
  eventType: 'create' | 'update' | 'delete',
  upload: Upload,
  assetsBase: string,
  previous?: Upload,
): Promise<void> {
  await emitEvent(tx, {
    entityType: 'upload',
    eventType,
    upload,
    assetsBase,
    ...(previous ? { previous } : {}),
  });
}
