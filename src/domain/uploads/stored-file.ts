import type { Scope, ScopedTransaction } from '../../db/environment-scope.ts';
import { DomainError, ValidationFailed } from '../errors.ts';
import { filenameOf } from '../upload-file-names.ts';
import { analyzeFile } from './analysis/analyze.ts';
import { storageKey } from './paths.ts';
import { findOpenRequest } from './repo.ts';
import type { UploadMetadata } from './upload.ts';
import type { UploadSettings } from './upload-settings.ts';

/** A path an upload request handed out, with its bytes analysed, ready to be consumed. */
export type StoredFile = Readonly<{
  path: string;
  metadata: UploadMetadata;
  /** The collection the upload request named, if any. */
  requestedCollectionId: string | null;
}>;

export function invalidPath(message: string): ValidationFailed {
  return new ValidationFailed('Upload', [{ field: 'path', code: 'VALIDATION_INVALID', message }]);
}

/**
 * The bytes PUT to a path an upload request of this environment handed out and no upload
 * consumed yet, read once to compute their metadata. Used by a create and by a replace.
 */
export async function storedFile(
  scope: Scope,
  settings: UploadSettings,
  path: string,
): Promise<StoredFile> {
  const request = await findOpenRequest(scope.project, path, scope.environment.number);
  if (!request)
    throw invalidPath('is not an unused path from an upload request of this environment');
  return {
    path,
    metadata: await analyzeStored(settings, path),
    requestedCollectionId: request.upload_collection_id,
  };
}

/**
 * Marks the path used, in the transaction that makes the upload name it: from then on
 * its upload URL is refused and the unused-request sweep leaves its bytes alone.
 */
export async function consumePath(tx: ScopedTransaction, path: string, at: Date): Promise<void> {
  const consumed = await tx.project
    .updateTable('upload_requests')
    .set({ consumed_at: at })
    .where('path', '=', path)
    .where('consumed_at', 'is', null)
    .returning('path')
    .executeTakeFirst();
  // Another create or replace consumed it since it was looked up, or the sweep removed it.
  if (!consumed) throw invalidPath('was used by another upload');
}

/**
 * The metadata of the bytes at `path`. Bytes over the size limit (possible with a direct
 * upload to S3, which Fieldhouse does not see) are deleted and refused.
 */
async function analyzeStored(settings: UploadSettings, path: string): Promise<UploadMetadata> {
  const key = storageKey(path);
  const stored = await settings.storage.head(key);
  if (!stored) throw invalidPath('has no file: PUT the file to the upload URL first');
  if (stored.size > settings.maxBytes) {
    await settings.storage.delete(key);
    throw invalidPath(`holds a file larger than ${settings.maxBytes} bytes`);
  }
  return settings.storage.withFile(key, (file) => analyzeFile(file, filenameOf(path)));
}

export function unknownCollection(): DomainError {
  return new DomainError('INVALID_RELATIONSHIP', 'No such upload collection', {
    relationship: 'upload_collection',
    reason: 'not found',
  });
}
