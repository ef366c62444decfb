import { Type } from '@sinclair/typebox';

export const UploadReferencesQuery = Type.Object(
  {
    nested: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    version: Type.Optional(
      Type.Union([
        Type.Literal('current'),
        Type.Literal('published'),
        Type.Literal('published-or-current'),
      ]),
    ),
  },
  { additionalProperties: true },
);
