import { Type } from '@sinclair/typebox';
import {
  AnyResource,
  Json,
  Many,
  One,
  RefMany,
  RefOne,
  ResourceOf,
  Text,
} from '../schemas/documents.ts';

// The project's schema as the API answers it: models, fields, fieldsets, workflows.

export const ItemTypeResource = ResourceOf('item_type', {
  attributes: {
    name: Type.String(),
    api_key: Type.String(),
    singleton: Type.Boolean(),
    sortable: Type.Boolean(),
    tree: Type.Boolean(),
    modular_block: Type.Boolean(),
    draft_mode_active: Type.Boolean(),
    draft_saving_active: Type.Boolean(),
    all_locales_required: Type.Boolean(),
    ordering_direction: Text(),
    ordering_meta: Text(),
    collection_appearance: Type.String(),
    collection_appeareance: Type.String({ description: 'The legacy spelling, kept' }),
    has_singleton_item: Type.Boolean(),
    hint: Text(),
    inverse_relationships_enabled: Type.Boolean(),
  },
  relationships: {
    fields: RefMany('field'),
    fieldsets: RefMany('fieldset'),
    singleton_item: RefOne('item'),
    ordering_field: RefOne('field'),
    presentation_title_field: RefOne('field'),
    presentation_image_field: RefOne('field'),
    title_field: RefOne('field'),
    image_preview_field: RefOne('field'),
    excerpt_field: RefOne('field'),
    workflow: RefOne('workflow'),
  },
  meta: { has_singleton_item: Type.Boolean() },
});

export const FieldResource = ResourceOf('field', {
  attributes: {
    label: Type.String(),
    field_type: Type.String(),
    api_key: Type.String(),
    localized: Type.Boolean(),
    validators: Type.Record(Type.String(), Json),
    appearance: Type.Object({
      editor: Type.String(),
      parameters: Type.Record(Type.String(), Json),
      addons: Type.Array(Json),
    }),
    position: Type.Integer(),
    hint: Text(),
    default_value: Json,
    deep_filtering_enabled: Type.Boolean(),
    content_link_enabled: Type.Boolean(),
  },
  relationships: { item_type: RefOne('item_type'), fieldset: RefOne('fieldset') },
});

export const FieldsetResource = ResourceOf('fieldset', {
  attributes: {
    title: Type.String(),
    hint: Text(),
    position: Type.Integer(),
    collapsible: Type.Boolean(),
    start_collapsed: Type.Boolean(),
  },
  relationships: { item_type: RefOne('item_type') },
});

export const WorkflowResource = ResourceOf('workflow', {
  attributes: { name: Type.String(), api_key: Type.String(), stages: Type.Array(Json) },
});

/** A model change may include the menu entries it created. */
export const ItemTypeDocument = One(ItemTypeResource, { included: AnyResource });
export const ItemTypeList = Many(ItemTypeResource);
/** A field change includes the models it changed. */
export const FieldDocument = One(FieldResource, { included: ItemTypeResource });
export const FieldList = Many(FieldResource);
export const FieldsetDocument = One(FieldsetResource);
export const FieldsetList = Many(FieldsetResource);
/** The fields and fieldsets a reorder placed. */
export const ReorderedFormList = Many(Type.Union([FieldResource, FieldsetResource]));
export const WorkflowDocument = One(WorkflowResource);
export const WorkflowList = Many(WorkflowResource);
