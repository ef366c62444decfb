import { inEnvironmentTransaction, type Scope } from '../../db/environment-scope.ts';
import { emitUploadEvent } from '../../events/upload-events.ts';
import type { Actor } from '../actor.ts';
import { ValidationFailed } from '../errors.ts';
import { siteLocales } from '../fields/check-context.ts';
import { generateId } from '../ids.ts';
import { checkNewId } from '../new-ids.ts';
import { analyzeFile } from './analysis/analyze.ts';
import { assertMayOnUpload } from './authorization.ts';
import {
  emptyDefaultFieldMetadata,
  newIssues,
  normalizedTags,
  patchDefaultFieldMetadata,
  type UploadMetadataInput,
} from './metadata-input.ts';
import { filenameOf, storageKey } from './paths.ts';
import { findOpenRequest, insertUpload } from './repo.ts';
import { type Upload, type UploadMetadata, uploadFromRow } from './upload.ts';
import type { UploadSettings } from './upload-settings.ts';

export type CreateUploadInput = UploadMetadataInput & {
  id?: string;
  path: string;
  uploadCollectionId?: string | null;
};

function invalidPath(message: string): ValidationFailed {
  return new ValidationFailed('Upload', [{ field: 'path', code: 'VALIDATION_INVALID', message }]);
}

/**
 * Makes an upload of bytes PUT to a path an upload request of this environment handed
 * out: reads them once to compute their metadata (analysis/), then writes the row,
 * consumes the path and records the `upload/create` event in one transaction.
 */
export async function createUpload(
  scope: Scope,
  actor: Actor,
  settings: UploadSettings,
  input: CreateUploadInput,
): Promise<Upload> {
  assertMayOnUpload(actor, scope.environment.id, 'create', {
    creatorId: actor.token.id,
    creatorRoleId: actor.token.role_id,
    uploadCollectionId: input.uploadCollectionId ?? null,
  });
  const request = await findOpenRequest(scope.project, input.path, scope.environment.number);
  if (!request)
    throw invalidPath('is not an unused path from an upload request of this environment');
  const metadata = await analyzeStored(settings, input.path);
  const locales = await siteLocales(scope.db);
  const issues = newIssues();
  await checkNewId(scope.db, issues, 'id', input.id, 'uploads');
  const defaults = patchDefaultFieldMetadata(
    emptyDefaultFieldMetadata(locales),
    input.defaultFieldMetadata ?? {},
    locales,
    issues,
  );
  issues.throwIfAny();
  const now = new Date();
  const upload: Upload = {
    ...metadata,
    id: input.id ?? generateId(),
    path: input.path,
    tags: normalizedTags(input.tags ?? []),
    author: input.author ?? null,
    copyright: input.copyright ?? null,
    notes: input.notes ?? null,
    defaultFieldMetadata: defaults,
    uploadCollectionId: null,
    creatorId: actor.token.id,
    createdAt: now,
    updatedAt: now,
  };
  return inEnvironmentTransaction(scope, async (tx) => {
    const consumed = await tx.project
      .updateTable('upload_requests')
      .set({ consumed_at: now })
      .where('path', '=', input.path)
      .where('consumed_at', 'is', null)
      .returning('path')
      .executeTakeFirst();
    // Another create consumed it since it was looked up.
    if (!consumed) throw invalidPath('was used by another upload');
    const created = uploadFromRow(await insertUpload(tx.db, upload));
    await emitUploadEvent(tx, 'create', created, settings.assetsBase());
    return created;
  });
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
