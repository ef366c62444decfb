import { Type } from '@sinclair/typebox';
import { Enum, NoMembers, NullableString, ResourceDocument, ToMany, ToOne } from '../jsonapi.ts';
import { ReorderDocument } from './menu-tree.ts';

const KINDS = ['item_type', 'modular_block'] as const;

const relationships = {
  item_type: Type.Optional(ToOne('item_type')),
  parent: Type.Optional(ToOne('schema_menu_item')),
};

export const CreateSchemaMenuItemBody = ResourceDocument({
  attributes: Type.Object(
    {
      label: NullableString(),
      position: Type.Optional(Type.Integer()),
      kind: Enum(KINDS),
    },
    { additionalProperties: false },
  ),
  relationships: Type.Object(relationships, { additionalProperties: false }),
  meta: NoMembers,
});

export const UpdateSchemaMenuItemBody = ResourceDocument({
  attributes: Type.Object(
    {
      label: Type.Optional(NullableString()),
      position: Type.Optional(Type.Integer()),
      kind: Type.Optional(Enum(KINDS)),
    },
    { additionalProperties: false },
  ),
  relationships: Type.Object(
    { ...relationships, children: Type.Optional(ToMany('schema_menu_item')) },
    { additionalProperties: false },
  ),
  meta: NoMembers,
});

export const ReorderSchemaMenuItemsBody = ReorderDocument('schema_menu_item');
