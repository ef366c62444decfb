import type { Scope } from '../../db/environment-scope.ts';
import type { Actor } from '../actor.ts';
import { collectionLineage } from '../upload-collections/lineage.ts';
import type { UploadOwner } from './authorization.ts';
import type { Upload } from './upload.ts';

/** Whose an upload is, for permission entries: its creator token and that token's role. */
export async function uploadOwner(
  scope: Pick<Scope, 'db' | 'project'>,
  upload: Pick<Upload, 'creatorId' | 'uploadCollectionId'>,
): Promise<UploadOwner> {
  const creator = await scope.project
    .selectFrom('access_tokens')
    .select('role_id')
    .where('id', '=', upload.creatorId)
    .executeTakeFirst();
  return {
    creatorId: upload.creatorId,
    creatorRoleId: creator?.role_id ?? null,
    collectionLineage: await collectionLineage(scope.db, upload.uploadCollectionId),
  };
}

/** The owner of an upload the caller is about to create in `collectionId`. */
export async function newUploadOwner(
  scope: Pick<Scope, 'db'>,
  actor: Actor,
  collectionId: string | null,
): Promise<UploadOwner> {
  return {
    creatorId: actor.token.id,
    creatorRoleId: actor.token.role_id,
    collectionLineage: await collectionLineage(scope.db, collectionId),
  };
}
