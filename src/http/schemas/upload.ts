import { Type } from '@sinclair/typebox';
import {
  Enum,
  NoMembers,
  Nullable,
  NullableString,
  ResourceDocument,
  ToMany,
  ToOne,
} from '../jsonapi.ts';

// ── Requests ──

const defaultFieldMetadata = Type.Record(Type.String(), Type.Unknown());

// The client's schema lets any other attribute through on create and update
// (`[k: string]: unknown`): they are accepted and ignored.
const metadataAttributes = {
  copyright: Type.Optional(NullableString()),
  author: Type.Optional(NullableString()),
  notes: Type.Optional(NullableString()),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 500 })),
  default_field_metadata: Type.Optional(defaultFieldMetadata),
};

export const CreateUploadRequestBody = ResourceDocument({
  attributes: Type.Object(
    { filename: Type.Optional(Type.String({ maxLength: 1024 })) },
    { additionalProperties: true },
  ),
  relationships: Type.Object(
    { upload_collection: Type.Optional(ToOne('upload_collection')) },
    { additionalProperties: false },
  ),
  meta: NoMembers,
});

export const CreateUploadBody = ResourceDocument({
  attributes: Type.Object(
    { path: Type.String({ maxLength: 2048 }), ...metadataAttributes },
    { additionalProperties: true },
  ),
  relationships: Type.Object(
    { upload_collection: Type.Optional(ToOne('upload_collection')) },
    { additionalProperties: false },
  ),
  meta: NoMembers,
});

export const UpdateUploadBody = ResourceDocument({
  attributes: Type.Object(
    {
      path: Type.Optional(Type.String({ maxLength: 2048 })),
      basename: Type.Optional(Type.String({ maxLength: 255 })),
      ...metadataAttributes,
    },
    { additionalProperties: true },
  ),
  relationships: Type.Object(
    {
      upload_collection: Type.Optional(ToOne('upload_collection')),
      creator: Type.Optional(ToOne('access_token')),
    },
    { additionalProperties: false },
  ),
  meta: NoMembers,
});

export const UpdateUploadQuery = Type.Object(
  { replace_strategy: Type.Optional(Enum(['create_new_url', 'keep_url'])) },
  { additionalProperties: true },
);

const BulkUploads = ToMany('upload', 10_000);

export const BulkTagUploadsBody = ResourceDocument({
  attributes: Type.Object(
    { tags: Type.Array(Type.String({ maxLength: 255 }), { maxItems: 500 }) },
    { additionalProperties: false },
  ),
  relationships: Type.Object({ uploads: BulkUploads }, { additionalProperties: false }),
  meta: NoMembers,
});

export const BulkMoveUploadsBody = ResourceDocument({
  attributes: NoMembers,
  relationships: Type.Object(
    { upload_collection: ToOne('upload_collection'), uploads: BulkUploads },
    { additionalProperties: false },
  ),
  meta: NoMembers,
});

export const BulkDestroyUploadsBody = ResourceDocument({
  attributes: NoMembers,
  relationships: Type.Object({ uploads: BulkUploads }, { additionalProperties: false }),
  meta: NoMembers,
});

export const ListUploadsQuery = Type.Object(
  {
    filter: Type.Optional(
      Type.Object(
        {
          ids: Type.Optional(Type.String()),
          query: Type.Optional(Type.String({ maxLength: 1000 })),
          fields: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        },
        { additionalProperties: true },
      ),
    ),
    locale: Type.Optional(Type.String()),
    order_by: Type.Optional(Type.String({ maxLength: 500 })),
    page: Type.Optional(
      Type.Object(
        {
          // Query strings carry text (types are not coerced): digits, a limit of 1 to 500.
          offset: Type.Optional(Type.String({ pattern: '^\\d{1,9}$' })),
          limit: Type.Optional(Type.String({ pattern: '^([1-9]|[1-9]\\d|[1-4]\\d\\d|500)$' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: true },
);

// ── Responses ──

const Color = Type.Object({
  red: Type.Integer(),
  green: Type.Integer(),
  blue: Type.Integer(),
  alpha: Type.Integer(),
});

const UploadResource = Type.Object({
  type: Type.Literal('upload'),
  id: Type.String(),
  attributes: Type.Object({
    size: Type.Integer(),
    width: Nullable(Type.Integer()),
    height: Nullable(Type.Integer()),
    path: Type.String(),
    basename: Type.String(),
    filename: Type.String(),
    url: Type.String(),
    format: NullableString(),
    author: NullableString(),
    copyright: NullableString(),
    notes: NullableString(),
    md5: Type.String(),
    duration: Type.Null(),
    frame_rate: Type.Null(),
    blurhash: NullableString(),
    thumbhash: NullableString(),
    mux_playback_id: Type.Null(),
    mux_mp4_highest_res: Type.Null(),
    default_field_metadata: defaultFieldMetadata,
    is_image: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    mime_type: Type.String(),
    tags: Type.Array(Type.String()),
    smart_tags: Type.Array(Type.String()),
    exif_info: Type.Record(Type.String(), Type.Unknown()),
    colors: Type.Array(Color),
  }),
  relationships: Type.Object({
    upload_collection: ToOne('upload_collection'),
    creator: ToOne('access_token'),
  }),
  meta: Type.Object({ antivirus: Type.Record(Type.String(), Type.Unknown()) }),
});

const Job = Type.Object({ data: Type.Object({ type: Type.Literal('job'), id: Type.String() }) });

export const UploadDocument = Type.Object({ data: UploadResource });

export const UploadListDocument = Type.Object({
  data: Type.Array(UploadResource),
  meta: Type.Object({ total_count: Type.Integer() }),
});

/** A create or replace: the upload, or a job whose result holds it (async jobs on). */
export const UploadChangeResponses = { 200: UploadDocument, 201: UploadDocument, 202: Job };

const BulkOutcomeDocument = Type.Object({
  data: Type.Array(Type.Unknown(), { maxItems: 0 }),
  meta: Type.Object({ successful: Type.Integer(), failed: Type.Integer() }),
});

/** A bulk operation: its outcome, or a job whose result holds it (async jobs on). */
export const BulkOutcomeResponses = { 200: BulkOutcomeDocument, 202: Job };

export const UploadRequestDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('upload_request'),
    id: Type.String({ description: 'the path the file will have' }),
    attributes: Type.Object({
      url: Type.String({ description: 'PUT the file here, with no Authorization header' }),
      request_headers: Type.Record(Type.String(), Type.String()),
    }),
  }),
});
