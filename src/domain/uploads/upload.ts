import type { UploadColor, UploadDefaultFieldMetadata, UploadRow } from '../../db/schema.ts';

export type { UploadColor, UploadDefaultFieldMetadata };

/** What Fieldhouse computes from an upload's bytes. */
export type UploadMetadata = Readonly<{
  size: number;
  md5: string;
  mimeType: string;
  format: string | null;
  isImage: boolean;
  width: number | null;
  height: number | null;
  blurhash: string | null;
  thumbhash: string | null;
  colors: readonly UploadColor[];
  exifInfo: Readonly<Record<string, unknown>>;
  smartTags: readonly string[];
}>;

/** An upload of one environment: its file, what was computed from it, what users set. */
export type Upload = UploadMetadata &
  Readonly<{
    id: string;
    /** `/<site id>/<ms>-<file name>`: the storage key (without the `/`) and the URL's tail. */
    path: string;
    tags: readonly string[];
    author: string | null;
    copyright: string | null;
    notes: string | null;
    defaultFieldMetadata: UploadDefaultFieldMetadata;
    uploadCollectionId: string | null;
    /** The access token that created it. */
    creatorId: string;
    createdAt: Date;
    updatedAt: Date;
  }>;

export function uploadFromRow(row: UploadRow): Upload {
  return {
    id: row.id,
    path: row.path,
    size: Number(row.size),
    md5: row.md5,
    mimeType: row.mime_type,
    format: row.format,
    isImage: row.is_image,
    width: row.width,
    height: row.height,
    blurhash: row.blurhash,
    thumbhash: row.thumbhash,
    colors: row.colors,
    exifInfo: row.exif_info,
    smartTags: row.smart_tags,
    tags: row.tags,
    author: row.author,
    copyright: row.copyright,
    notes: row.notes,
    defaultFieldMetadata: row.default_field_metadata,
    uploadCollectionId: row.upload_collection_id,
    creatorId: row.creator_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
