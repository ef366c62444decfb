import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { emitUploadEvent } from '../../events/upload-events.ts';
import type { Actor } from '../actor.ts';
import { DomainError, type Issues, NotFound } from '../errors.ts';
import { siteLocales } from '../schema/locales.ts';
import { collectionExists } from '../upload-collections/lineage.ts';
import { basenameOf, filenameOf } from '../upload-file-names.ts';
import { findUpload } from './find-upload.ts';
import {
  newIssues,
  normalizedTags,
  patchDefaultFieldMetadata,
  type UploadMetadataInput,
} from './metadata-input.ts';
import { lockUploadRows, saveUpload } from './repo.ts';
import {
  consumePath,
  invalidPath,
  type StoredFile,
  storedFile,
  unknownCollection,
} from './stored-file.ts';
import { assertMayUpdate } from './update-permissions.ts';
import { type Upload, uploadFromRow } from './upload.ts';
import type { UploadSettings } from './upload-settings.ts';

export type UpdateUploadInput = UploadMetadataInput & {
  /** A new file: a path from an upload request, its bytes PUT. */
  path?: string;
  replaceStrategy?: 'create_new_url' | 'keep_url';
  uploadCollectionId?: string | null;
  creatorId?: string;
  /** Renaming is not supported: only the current basename is accepted. */
  basename?: string;
};

/**
 * Changes an upload's metadata, collection or creator, or replaces its file: the new
 * bytes are analysed as a create's are and the upload takes the new path (and URL); its
 * metadata set by users stays. The old path loses this row's reference (the bytes go
 * when no environment names them). `default_field_metadata` is a patch; `tags` replaces
 * the list. The row, the consumed path and the `upload/update` event commit together.
 */
export async function updateUpload(
  scope: Scope,
  actor: Actor,
  settings: UploadSettings,
  id: string,
  input: UpdateUploadInput,
): Promise<Upload> {
  const before = await findUpload(scope, id);
  const file = await replacementFile(scope, settings, before, input);
  await checkRelations(scope, input);
  const locales = await siteLocales(scope.db);
  return inEnvironmentTransaction(scope, async (tx) => {
    const [row] = await lockUploadRows(tx.db, [id]);
    if (!row) throw new NotFound('Upload', id); // destroyed since it was read
    const current = uploadFromRow(row);
    const issues = newIssues();
    if (input.basename !== undefined && input.basename !== basenameOf(filenameOf(current.path)))
      issues.add('basename', 'VALIDATION_INVALID', 'renaming an upload is not supported');
    const next = applyUpdate(current, input, file, locales, issues);
    issues.throwIfAny();
    await assertMayUpdate(tx, actor, current, next);
    if (file) await consumePath(tx, file.path, next.updatedAt);
    const saved = uploadFromRow(await saveUpload(tx.db, next));
    await emitUploadEvent(tx, 'update', saved, settings.assetsBase(), current);
    return saved;
  });
}

/** The new file an update names, analysed; null when it names none or the current one. */
async function replacementFile(
  scope: Scope,
  settings: UploadSettings,
  current: Upload,
  input: UpdateUploadInput,
): Promise<StoredFile | null> {
  if (input.path === undefined || input.path === current.path) return null;
  if (input.replaceStrategy === 'keep_url') {
    throw invalidPath(
      'cannot replace the file keeping its URL (replace_strategy=keep_url): ' +
        'Fieldhouse serves every new file at a new URL; use create_new_url',
    );
  }
  return storedFile(scope, settings, input.path);
}

async function checkRelations(scope: Scope, input: UpdateUploadInput): Promise<void> {
  if (
    input.uploadCollectionId !== undefined &&
    !(await collectionExists(scope.db, input.uploadCollectionId))
  )
    throw unknownCollection();
  if (input.creatorId !== undefined) {
    const token = await scope.project
      .selectFrom('access_tokens')
      .select('id')
      .where('id', '=', input.creatorId)
      .executeTakeFirst();
    if (!token) {
      throw new DomainError('INVALID_RELATIONSHIP', 'No such access token', {
        relationship: 'creator',
        reason: 'not found',
      });
    }
  }
}

function applyUpdate(
  current: Upload,
  input: UpdateUploadInput,
  file: StoredFile | null,
  locales: readonly string[],
  issues: Issues,
): Upload {
  return {
    ...current,
    ...(file ? { ...file.metadata, path: file.path } : {}),
    tags: input.tags === undefined ? current.tags : normalizedTags(input.tags),
    author: input.author === undefined ? current.author : input.author,
    copyright: input.copyright === undefined ? current.copyright : input.copyright,
    notes: input.notes === undefined ? current.notes : input.notes,
    defaultFieldMetadata: patchDefaultFieldMetadata(
      current.defaultFieldMetadata,
      input.defaultFieldMetadata ?? {},
      locales,
      issues,
    ),
    uploadCollectionId:
      input.uploadCollectionId === undefined
        ? current.uploadCollectionId
        : input.uploadCollectionId,
    creatorId: input.creatorId ?? current.creatorId,
    updatedAt: new Date(),
  };
}
