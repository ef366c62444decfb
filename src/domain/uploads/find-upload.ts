import type { Scope } from '../../db/environment-scope.ts';
import type { Actor } from '../actor.ts';
import { NotFound } from '../errors.ts';
import { assertMayOnUpload } from './authorization.ts';
import { uploadOwner } from './owner.ts';
import { findUploadRow } from './repo.ts';
import { type Upload, uploadFromRow } from './upload.ts';

/** The upload with that id in the request's environment; NOT_FOUND otherwise. */
export async function findUpload(scope: Scope, id: string): Promise<Upload> {
  const row = await findUploadRow(scope.db, id);
  if (!row) throw new NotFound('Upload', id);
  return uploadFromRow(row);
}

/** As findUpload, for a caller whose role must let it read the upload. */
export async function readUpload(scope: Scope, actor: Actor, id: string): Promise<Upload> {
  const upload = await findUpload(scope, id);
  assertMayOnUpload(actor, scope.environment.id, 'read', await uploadOwner(scope, upload));
  return upload;
}
