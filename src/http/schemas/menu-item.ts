import { Type } from '@sinclair/typebox';
import { NoMembers, NullableString, ResourceDocument, ToOne } from '../jsonapi.ts';
import { ReorderDocument } from './menu-tree.ts';

const optionalAttributes = {
  external_url: Type.Optional(NullableString()),
  position: Type.Optional(Type.Integer()),
  open_in_new_tab: Type.Optional(Type.Boolean()),
};

const relationships = Type.Object(
  {
    item_type: Type.Optional(ToOne('item_type')),
    item_type_filter: Type.Optional(ToOne('item_type_filter')),
    parent: Type.Optional(ToOne('menu_item')),
  },
  { additionalProperties: false },
);

export const CreateMenuItemBody = ResourceDocument({
  attributes: Type.Object(
    { label: Type.String(), ...optionalAttributes },
    { additionalProperties: false },
  ),
  relationships,
  meta: NoMembers,
});

export const UpdateMenuItemBody = ResourceDocument({
  attributes: Type.Object(
    { label: Type.Optional(Type.String()), ...optionalAttributes },
    { additionalProperties: false },
  ),
  relationships,
  meta: NoMembers,
});

export const ReorderMenuItemsBody = ReorderDocument('menu_item');
