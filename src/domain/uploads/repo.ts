import type { Db } from '../../db/client.ts';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { UploadRow } from '../../db/schema.ts';
import type { Upload, UploadMetadata } from './upload.ts';

export async function findUploadRow(db: EnvQueryable, id: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The request a path was handed out by, while it may still be consumed. */
export async function findOpenRequest(project: Db, path: string, environmentNumber: number) {
  return project
    .selectFrom('upload_requests')
    .selectAll()
    .where('path', '=', path)
    .where('environment_number', '=', environmentNumber)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
}

function metadataColumns(metadata: UploadMetadata) {
  return {
    size: metadata.size,
    md5: metadata.md5,
    mime_type: metadata.mimeType,
    format: metadata.format,
    is_image: metadata.isImage,
    width: metadata.width,
    height: metadata.height,
    blurhash: metadata.blurhash,
    thumbhash: metadata.thumbhash,
    colors: JSON.stringify(metadata.colors),
    exif_info: JSON.stringify(metadata.exifInfo),
    smart_tags: JSON.stringify(metadata.smartTags),
  };
}

export async function insertUpload(db: EnvQueryable, upload: Upload): Promise<UploadRow> {
  return db
    .insertInto('uploads')
    .values({
      id: upload.id,
      path: upload.path,
      ...metadataColumns(upload),
      tags: JSON.stringify(upload.tags),
      author: upload.author,
      copyright: upload.copyright,
      notes: upload.notes,
      default_field_metadata: JSON.stringify(upload.defaultFieldMetadata),
      upload_collection_id: upload.uploadCollectionId,
      creator_id: upload.creatorId,
      created_at: upload.createdAt,
      updated_at: upload.updatedAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Writes every column an update may change. */
export async function saveUpload(db: EnvQueryable, upload: Upload): Promise<UploadRow> {
  return db
    .updateTable('uploads')
    .set({
      path: upload.path,
      ...metadataColumns(upload),
      tags: JSON.stringify(upload.tags),
      author: upload.author,
      copyright: upload.copyright,
      notes: upload.notes,
      default_field_metadata: JSON.stringify(upload.defaultFieldMetadata),
      upload_collection_id: upload.uploadCollectionId,
      creator_id: upload.creatorId,
      updated_at: upload.updatedAt,
    })
    .where('id', '=', upload.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One statement: the reference-count trigger uncounts every path at once, in path order. */
export async function deleteUploads(db: EnvQueryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('uploads').where('id', 'in', ids).execute();
}

/** The rows with these ids, locked for the transaction's change, in id order (no deadlock). */
export async function lockUploadRows(
  db: EnvQueryable,
  ids: readonly string[],
): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}
