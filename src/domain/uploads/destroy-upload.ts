import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { emitUploadEvent } from '../../events/upload-events.ts';
import type { Actor } from '../actor.ts';
import { NotFound } from '../errors.ts';
import { assertMayOnUpload } from './authorization.ts';
import { uploadOwner } from './owner.ts';
import { deleteUploads, lockUploadRows } from './repo.ts';
import { type Upload, uploadFromRow } from './upload.ts';
import type { UploadSettings } from './upload-settings.ts';

/**
 * Destroys an upload and answers it as it was, with its `upload/delete` event in the same
 * transaction. An upload records use may be destroyed, as in DatoCMS: their values keep
 * its id and read as a missing file. Its bytes stay while another environment names them
 * (the path's reference count; see README.md).
 */
export async function destroyUpload(
  scope: Scope,
  actor: Actor,
  settings: UploadSettings,
  id: string,
): Promise<Upload> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const [row] = await lockUploadRows(tx.db, [id]);
    if (!row) throw new NotFound('Upload', id);
    const upload = uploadFromRow(row);
    assertMayOnUpload(actor, tx.environment.id, 'delete', await uploadOwner(tx, upload));
    await deleteUploads(tx.db, [id]);
    await emitUploadEvent(tx, 'delete', upload, settings.assetsBase());
    return upload;
  });
}
