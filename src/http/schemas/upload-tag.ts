import { Type } from '@sinclair/typebox';
import { NoMembers, ResourceDocument } from '../jsonapi.ts';

export const CreateUploadTagBody = ResourceDocument({
  attributes: Type.Object(
    { name: Type.String({ minLength: 1, maxLength: 255 }) },
    { additionalProperties: false },
  ),
  relationships: NoMembers,
  meta: NoMembers,
});

export const ListUploadTagsQuery = Type.Object(
  {
    filter: Type.Optional(
      Type.Object(
        { query: Type.Optional(Type.String({ maxLength: 1000 })) },
        { additionalProperties: true },
      ),
    ),
    page: Type.Optional(
      Type.Object(
        {
          // Query strings carry text: digits, a limit of 1 to 500.
          offset: Type.Optional(Type.String({ pattern: '^\\d{1,9}$' })),
          limit: Type.Optional(Type.String({ pattern: '^([1-9]|[1-9]\\d|[1-4]\\d\\d|500)$' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: true },
);

function TagResource(type: 'upload_tag' | 'upload_smart_tag') {
  return Type.Object({
    type: Type.Literal(type),
    id: Type.String(),
    attributes: Type.Object({ name: Type.String() }),
  });
}

export function TagListDocument(type: 'upload_tag' | 'upload_smart_tag') {
  return Type.Object({
    data: Type.Array(TagResource(type)),
    meta: Type.Object({ total_count: Type.Integer() }),
  });
}

export const UploadTagDocument = Type.Object({ data: TagResource('upload_tag') });
