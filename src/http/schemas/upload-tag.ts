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
