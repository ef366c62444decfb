import { Type } from '@sinclair/typebox';
import { Component } from '../schemas/component.ts';
import {
  JobDocument,
  Json,
  Many,
  One,
  RefMany,
  RefOne,
  ResourceOf,
  Text,
} from '../schemas/documents.ts';
import { ItemResource } from './records.ts';

// The media library as the API answers it: uploads, their collections and tags, upload
// requests and the records that use an upload.

const Color = Type.Object({
  red: Type.Integer(),
  green: Type.Integer(),
  blue: Type.Integer(),
  alpha: Type.Integer(),
});

const Dimension = Type.Union([Type.Integer(), Type.Null()]);

const UploadResource = ResourceOf('upload', {
  attributes: {
    size: Type.Integer(),
    width: Dimension,
    height: Dimension,
    path: Type.String(),
    basename: Type.String(),
    filename: Type.String(),
    url: Type.String(),
    format: Text(),
    author: Text(),
    copyright: Text(),
    notes: Text(),
    md5: Type.String(),
    duration: Type.Null(),
    frame_rate: Type.Null(),
    blurhash: Text(),
    thumbhash: Text(),
    mux_playback_id: Type.Null(),
    mux_mp4_highest_res: Type.Null(),
    default_field_metadata: Type.Record(Type.String(), Json),
    is_image: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    mime_type: Type.String(),
    tags: Type.Array(Type.String()),
    smart_tags: Type.Array(Type.String()),
    exif_info: Type.Record(Type.String(), Json),
    colors: Type.Array(Color),
  },
  relationships: {
    upload_collection: RefOne('upload_collection'),
    creator: RefOne('access_token'),
  },
  meta: { antivirus: Type.Record(Type.String(), Json) },
});

export const UploadDocument = One(UploadResource);
export const UploadListDocument = Many(UploadResource, { paginated: true });

/** A create or replace: the upload, or a job whose result holds it (async jobs on). */
export const UploadChangeResponses = { 200: UploadDocument, 201: UploadDocument, 202: JobDocument };

const BulkOutcomeDocument = Component(
  'BulkOutcomeDocument',
  Type.Object({
    data: Type.Array(Json, { maxItems: 0 }),
    meta: Type.Object({ successful: Type.Integer(), failed: Type.Integer() }),
  }),
);

/** A bulk operation: its outcome, or a job whose result holds it (async jobs on). */
export const BulkOutcomeResponses = { 200: BulkOutcomeDocument, 202: JobDocument };

/** Where to put a file's bytes; the resource's id is the path the file will have. */
export const UploadRequestDocument = One(
  ResourceOf('upload_request', {
    attributes: {
      url: Type.String({ description: 'PUT the file here, with no Authorization header' }),
      request_headers: Type.Record(Type.String(), Type.String()),
    },
  }),
);

const UploadCollectionResource = ResourceOf('upload_collection', {
  attributes: { label: Type.String(), position: Type.Integer() },
  relationships: {
    parent: RefOne('upload_collection'),
    children: RefMany('upload_collection'),
  },
});

export const UploadCollectionDocument = One(UploadCollectionResource);
export const UploadCollectionListDocument = Many(UploadCollectionResource);

/** A reorder: the collections moved, or a job whose result holds them (async jobs on). */
export const ReorderUploadCollectionsResponses = {
  200: UploadCollectionListDocument,
  202: JobDocument,
};

const UploadTagResource = ResourceOf('upload_tag', { attributes: { name: Type.String() } });
const UploadSmartTagResource = ResourceOf('upload_smart_tag', {
  attributes: { name: Type.String() },
});

export const UploadTagDocument = One(UploadTagResource);
export const UploadTagListDocument = Many(UploadTagResource, { paginated: true });
export const UploadSmartTagListDocument = Many(UploadSmartTagResource, { paginated: true });

/** The records that use an upload, as the items endpoints answer them. */
export const UploadReferencesDocument = Many(ItemResource, { name: 'UploadReferencesList' });
