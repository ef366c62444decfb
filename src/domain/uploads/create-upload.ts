import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { emitUploadEvent } from '../../events/upload-events.ts';
import type { Actor } from '../actor.ts';
import { generateId } from '../ids.ts';
import { checkNewId } from '../new-ids.ts';
import { siteLocales } from '../schema/locales.ts';
import { collectionExists } from '../upload-collections/lineage.ts';
import { assertMayOnUpload } from './authorization.ts';
import {
  emptyDefaultFieldMetadata,
  newIssues,
  normalizedTags,
  patchDefaultFieldMetadata,
  type UploadMetadataInput,
} from './metadata-input.ts';
import { newUploadOwner } from './owner.ts';
import { insertUpload } from './repo.ts';
import { consumePath, storedFile, unknownCollection } from './stored-file.ts';
import { type Upload, uploadFromRow } from './upload.ts';
import type { UploadSettings } from './upload-settings.ts';

export type CreateUploadInput = UploadMetadataInput & {
  id?: string;
  path: string;
  /** Absent: the collection the upload request named, if any. */
  uploadCollectionId?: string | null;
};

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
  const file = await storedFile(scope, settings, input.path);
  const collectionId = input.uploadCollectionId ?? file.requestedCollectionId;
  if (!(await collectionExists(scope.db, collectionId))) throw unknownCollection();
  const owner = await newUploadOwner(scope, actor, collectionId);
  assertMayOnUpload(actor, scope.environment.id, 'create', owner);
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
    ...file.metadata,
    id: input.id ?? generateId(),
    path: input.path,
    tags: normalizedTags(input.tags ?? []),
    author: input.author ?? null,
    copyright: input.copyright ?? null,
    notes: input.notes ?? null,
    defaultFieldMetadata: defaults,
    uploadCollectionId: collectionId,
    creatorId: actor.token.id,
    createdAt: now,
    updatedAt: now,
  };
  return inEnvironmentTransaction(scope, async (tx) => {
    await consumePath(tx, input.path, now);
    const created = uploadFromRow(await insertUpload(tx.db, upload));
    await emitUploadEvent(tx, 'create', created, settings.assetsBase());
    return created;
  });
}
