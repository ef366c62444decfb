import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import { TooLarge } from '../../storage/storage.ts';
import { DomainError } from '../errors.ts';
import { storageKey } from './paths.ts';
import { verifyUploadGrant } from './signed-urls.ts';
import type { UploadSettings } from './upload-settings.ts';

/**
 * Stores the bytes PUT to an upload URL, streamed into storage. The token is the only
 * credential: a bad signature, an expired token or a path already consumed by an upload
 * is refused. A body longer than the grant (by its Content-Length or as counted) is
 * refused and leaves nothing; a second PUT before consumption replaces the first.
 */
export async function receiveUploadBytes(
  db: Db,
  settings: UploadSettings,
  token: string,
  body: Readable,
  declaredLength: number | null,
): Promise<{ size: number }> {
  const { signingSecret } = await settings.projectKeys();
  const grant = verifyUploadGrant(token, signingSecret, Date.now());
  if ('refused' in grant) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', `The upload URL is ${grant.refused}`, {
      reason: grant.refused,
    });
  }
  const consumed = await db
    .selectFrom('upload_requests')
    .select('consumed_at')
    .where('path', '=', grant.path)
    .executeTakeFirst();
  if (!consumed || consumed.consumed_at !== null) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', 'The upload URL was already used', {
      reason: 'consumed',
    });
  }
  if (declaredLength !== null && declaredLength > grant.maxBytes) throw tooLarge(grant.maxBytes);
  try {
    return await settings.storage.put(storageKey(grant.path), body, grant.maxBytes);
  } catch (error) {
    if (error instanceof TooLarge) throw tooLarge(grant.maxBytes);
    throw error;
  }
}

function tooLarge(maxBytes: number): DomainError {
  return new DomainError('REQUEST_BODY_TOO_LARGE', `The file is larger than ${maxBytes} bytes`, {
    max_bytes: maxBytes,
  });
}
