import { Type } from '@sinclair/typebox';
import { NoMembers, NullableString, ResourceDocument, ToOne } from '../jsonapi.ts';

const Filter = Type.Record(Type.String(), Type.Unknown());
const Columns = Type.Union([
  Type.Array(
    Type.Object(
      { name: Type.String(), width: Type.Number({ minimum: 0, maximum: 1 }) },
      { additionalProperties: false },
    ),
  ),
  Type.Null(),
]);

const attributes = Type.Object(
  {
    name: Type.Optional(Type.String()),
    filter: Type.Optional(Filter),
    columns: Type.Optional(Columns),
    order_by: Type.Optional(NullableString()),
    shared: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const relationships = Type.Object(
  { item_type: Type.Optional(ToOne('item_type')) },
  { additionalProperties: false },
);

// One shape for create and update: the service reports a missing name or model as
// INVALID_FIELD on that member, as it does for every other resource.
export const CreateItemTypeFilterBody = ResourceDocument({
  attributes,
  relationships,
  meta: NoMembers,
});

export const UpdateItemTypeFilterBody = ResourceDocument({
  attributes,
  relationships,
  meta: NoMembers,
});
