import { Type } from '@sinclair/typebox';
import { ResourceDocument, ToOne } from '../jsonapi.ts';

/** Values keyed by api_key: their shapes are the field-type registry's to check. */
const ItemAttributes = Type.Object({}, { additionalProperties: true });

const ItemMetaInput = Type.Object(
  { current_version: Type.Optional(Type.String()) },
  { additionalProperties: true },
);

export const CreateItemBody = ResourceDocument({
  attributes: ItemAttributes,
  relationships: Type.Object(
    { item_type: ToOne('item_type'), creator: Type.Optional(Type.Unsafe({})) },
    { additionalProperties: false },
  ),
  meta: ItemMetaInput,
});

export const UpdateItemBody = ResourceDocument({
  attributes: ItemAttributes,
  relationships: Type.Object(
    { item_type: Type.Optional(ToOne('item_type')), creator: Type.Optional(Type.Unsafe({})) },
    { additionalProperties: false },
  ),
  meta: ItemMetaInput,
});
