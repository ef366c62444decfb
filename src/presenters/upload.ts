import { basenameOf, filenameOf } from '../domain/upload-file-names.ts';
import type { Upload } from '../domain/uploads/upload.ts';
import type { Resource } from './jsonapi.ts';

/** No scanner runs: every upload reads as skipped. */
const ANTIVIRUS = { status: 'skipped', checked_at: null, threat_name: null } as const;

/** An upload as the CMA shows it; `assetsBase` + path is its URL. */
export function presentUpload(upload: Upload, assetsBase: string): Resource {
  const filename = filenameOf(upload.path);
  return {
    type: 'upload',
    id: upload.id,
    attributes: {
      size: upload.size,
      width: upload.width,
      height: upload.height,
      path: upload.path,
      basename: basenameOf(filename),
      filename,
      url: `${assetsBase}${upload.path}`,
      format: upload.format,
      author: upload.author,
      copyright: upload.copyright,
      notes: upload.notes,
      md5: upload.md5,
      duration: null,
      frame_rate: null,
      blurhash: upload.blurhash,
      thumbhash: upload.thumbhash,
      mux_playback_id: null,
      mux_mp4_highest_res: null,
      default_field_metadata: upload.defaultFieldMetadata,
      is_image: upload.isImage,
      created_at: upload.createdAt.toISOString(),
      updated_at: upload.updatedAt.toISOString(),
      mime_type: upload.mimeType,
      tags: upload.tags,
      smart_tags: upload.smartTags,
      exif_info: upload.exifInfo,
      colors: upload.colors,
    },
    relationships: {
      upload_collection: {
        data: upload.uploadCollectionId
          ? { type: 'upload_collection', id: upload.uploadCollectionId }
          : null,
      },
      creator: { data: { type: 'access_token', id: upload.creatorId } },
    },
    meta: { antivirus: ANTIVIRUS },
  };
}

/** What a bulk operation's job holds: no resources, the count of uploads it changed. */
export function presentBulkOutcome(outcome: { successful: number; failed: number }) {
  return { data: [], meta: { successful: outcome.successful, failed: outcome.failed } };
}
