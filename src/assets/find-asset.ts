import type { Db } from '../db/client.ts';
import { environmentRef, isVanishedEnvironmentError, scopeFor } from '../db/environment-scope.ts';

/** What serving an asset needs to know about the bytes a path names. */
export type Asset = Readonly<{
  path: string;
  md5: string;
  mimeType: string;
  size: number;
  isImage: boolean;
  format: string | null;
  /** As displayed (EXIF orientation applied); null for files that are not images. */
  width: number | null;
  height: number | null;
  createdAt: Date;
}>;

/**
 * The upload a path names, in whichever environment has it: asset URLs carry no
 * environment, and a fork's uploads keep their paths. A path no environment names any
 * more (`upload_objects.refs` at zero, or never consumed) is not served, so the cost
 * of a request for a made-up path is one primary-key read.
 */
export async function findAsset(db: Db, path: string): Promise<Asset | null> {
  const object = await db
    .selectFrom('upload_objects')
    .select('refs')
    .where('path', '=', path)
    .executeTakeFirst();
  if (!object || object.refs === 0) return null;
  const environments = await db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name', 'is_primary'])
    .orderBy('is_primary', 'desc')
    .orderBy('number')
    .execute();
  for (const environment of environments) {
    const found = await uploadIn(db, environment, path);
    if (found) return found;
  }
  return null;
}

async function uploadIn(
  db: Db,
  environment: Parameters<typeof environmentRef>[0],
  path: string,
): Promise<Asset | null> {
  try {
    const row = await scopeFor(db, environmentRef(environment))
      .db.selectFrom('uploads')
      .select(['md5', 'mime_type', 'size', 'is_image', 'format', 'width', 'height', 'created_at'])
      .where('path', '=', path)
      .executeTakeFirst();
    if (!row) return null;
    return {
      path,
      md5: row.md5,
      mimeType: row.mime_type,
      size: Number(row.size),
      isImage: row.is_image,
      format: row.format,
      width: row.width,
      height: row.height,
      createdAt: row.created_at,
    };
  } catch (error) {
    // Destroyed between the list and this read: the path may live in another environment.
    if (isVanishedEnvironmentError(error)) return null;
    throw error;
  }
}
