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

/** Records as the items endpoints answer them (their attributes follow each model). */
const ReferencingItem = Type.Object(
  {
    type: Type.Literal('item'),
    id: Type.String(),
    attributes: Type.Record(Type.String(), Type.Unknown()),
    relationships: Type.Record(Type.String(), Type.Unknown()),
    meta: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: true },
);

export const UploadReferencesDocument = Type.Object({ data: Type.Array(ReferencingItem) });
