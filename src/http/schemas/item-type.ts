import { Type } from '@sinclair/typebox';
import { ORDERING_METAS } from '../../domain/item-types/attributes.ts';
import {
  Enum,
  NoMembers,
  NullableEnum,
  NullableString,
  ResourceDocument,
  ToOne,
} from '../jsonapi.ts';

const APPEARANCES = ['compact', 'table'] as const;

const optionalAttributes = {
  singleton: Type.Optional(Type.Boolean()),
  all_locales_required: Type.Optional(Type.Boolean()),
  sortable: Type.Optional(Type.Boolean()),
  modular_block: Type.Optional(Type.Boolean()),
  draft_mode_active: Type.Optional(Type.Boolean()),
  draft_saving_active: Type.Optional(Type.Boolean()),
  tree: Type.Optional(Type.Boolean()),
  ordering_direction: Type.Optional(NullableEnum(['asc', 'desc'])),
  ordering_meta: Type.Optional(NullableEnum(ORDERING_METAS)),
  collection_appearance: Type.Optional(Enum(APPEARANCES)),
  collection_appeareance: Type.Optional(Enum(APPEARANCES)),
  hint: Type.Optional(NullableString()),
  inverse_relationships_enabled: Type.Optional(Type.Boolean()),
};

const relationships = Type.Object(
  {
    ordering_field: Type.Optional(ToOne('field')),
    presentation_title_field: Type.Optional(ToOne('field')),
    presentation_image_field: Type.Optional(ToOne('field')),
    title_field: Type.Optional(ToOne('field')),
    image_preview_field: Type.Optional(ToOne('field')),
    excerpt_field: Type.Optional(ToOne('field')),
    workflow: Type.Optional(ToOne('workflow')),
  },
  { additionalProperties: false },
);

export const CreateItemTypeBody = ResourceDocument({
  attributes: Type.Object(
    { name: Type.String(), api_key: Type.String(), ...optionalAttributes },
    { additionalProperties: false },
  ),
  relationships,
  meta: NoMembers,
});

export const UpdateItemTypeBody = ResourceDocument({
  attributes: Type.Object(
    {
      name: Type.Optional(Type.String()),
      api_key: Type.Optional(Type.String()),
      ...optionalAttributes,
      has_singleton_item: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  relationships,
  meta: Type.Object(
    { has_singleton_item: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
});

export const BooleanParam = Enum(['true', 'false']);

export const CreateItemTypeQuery = Type.Object(
  {
    skip_menu_item_creation: Type.Optional(BooleanParam),
    menu_item_id: Type.Optional(Type.String()),
    schema_menu_item_id: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const DestroyItemTypeQuery = Type.Object(
  { skip_menu_items_deletion: Type.Optional(BooleanParam) },
  { additionalProperties: false },
);
