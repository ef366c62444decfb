import { Type } from '@sinclair/typebox';
import { Enum, NoMembers, NullableString, ResourceDocument, ToMany, ToOne } from '../jsonapi.ts';

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
