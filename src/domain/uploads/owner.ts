import type { Scope } from '../../db/environment-scope.ts';
import type { UploadOwner } from './authorization.ts';
import type { Upload } from './upload.ts';

/** Whose an upload is, for permission entries: its creator token and that token's role. */
export async function uploadOwner(scope: Scope, upload: Upload): Promise<UploadOwner> {
  const creator = await scope.project
    .selectFrom('access_tokens')
    .select('role_id')
    .where('id', '=', upload.creatorId)
    .executeTakeFirst();
  return {
    creatorId: upload.creatorId,
    creatorRoleId: creator?.role_id ?? null,
    uploadCollectionId: upload.uploadCollectionId,
  };
}
