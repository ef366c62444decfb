import type { Scope } from '../../db/environment-scope.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { collectionExists } from '../upload-collections/lineage.ts';
import { assertMayOnUpload } from './authorization.ts';
import { newUploadOwner } from './owner.ts';
import { safeFileName, storageKey, uploadPath } from './paths.ts';
import { signUploadGrant } from './signed-urls.ts';
import { unknownCollection } from './stored-file.ts';
import type { UploadSettings } from './upload-settings.ts';

/** Where the client sends the bytes: a storage URL, or Fieldhouse's own sink with a token. */
export type UploadTarget =
  | Readonly<{ kind: 'direct'; url: string }>
  | Readonly<{ kind: 'sink'; token: string }>;

export type IssuedUploadRequest = Readonly<{ path: string; target: UploadTarget }>;

const MAX_CLASHES = 20;

/**
 * Reserves a new path for the caller's file and says where to PUT its bytes: a path of
 * its own (a clash, same millisecond and name, moves to the next millisecond) recorded
 * with the environment and token until `POST /uploads` consumes it. The URL carries its
 * own expiring credential: the client sends it no Authorization header.
 */
export async function requestUpload(
  scope: Scope,
  actor: Actor,
  settings: UploadSettings,
  input: { filename?: string; uploadCollectionId?: string | null },
): Promise<IssuedUploadRequest> {
  const collectionId = input.uploadCollectionId ?? null;
  if (!(await collectionExists(scope.db, collectionId))) throw unknownCollection();
  // The client's helpers name the collection only on `POST /uploads`, which checks it;
  // a request naming none needs the create action somewhere (checked by the route).
  if (collectionId !== null) {
    const owner = await newUploadOwner(scope, actor, collectionId);
    assertMayOnUpload(actor, scope.environment.id, 'create', owner);
  }
  const { siteId, signingSecret } = await settings.projectKeys();
  const name = safeFileName(input.filename);
  const expiresAt = Date.now() + settings.urlTtlSeconds * 1000;
  const path = await reservePath(scope, actor, { siteId, name, expiresAt, collectionId });
  const direct = await settings.storage.directUploadUrl(storageKey(path), settings.urlTtlSeconds);
  if (direct) return { path, target: { kind: 'direct', url: direct } };
  const token = signUploadGrant({ path, maxBytes: settings.maxBytes, expiresAt }, signingSecret);
  return { path, target: { kind: 'sink', token } };
}

async function reservePath(
  scope: Scope,
  actor: Actor,
  request: { siteId: string; name: string; expiresAt: number; collectionId: string | null },
): Promise<string> {
  const { siteId, name, expiresAt } = request;
  const now = Date.now();
  for (let clash = 0; clash < MAX_CLASHES; clash++) {
    const path = uploadPath(siteId, now + clash, name);
    const reserved = await scope.project
      .insertInto('upload_requests')
      .values({
        path,
        environment_number: scope.environment.number,
        access_token_id: actor.token.id,
        upload_collection_id: request.collectionId,
        expires_at: new Date(expiresAt),
        consumed_at: null,
      })
      .onConflict((oc) => oc.column('path').doNothing())
      .returning('path')
      .executeTakeFirst();
    if (reserved) return reserved.path;
  }
  throw new DomainError('SERVICE_UNAVAILABLE', 'Too many uploads of this name at once');
}
