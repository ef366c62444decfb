import type { ModelView } from '../domain/schema/model-state.ts';
import { type Resource, ref, refs } from './jsonapi.ts';

export function presentItemType({ itemType: row, children }: ModelView): Resource {
  return {
    type: 'item_type',
    id: row.id,
    attributes: {
      name: row.name,
      api_key: row.api_key,
      singleton: row.singleton,
      sortable: row.sortable,
      tree: row.tree,
      modular_block: row.modular_block,
      draft_mode_active: row.draft_mode_active,
      draft_saving_active: row.draft_saving_active,
      all_locales_required: row.all_locales_required,
      ordering_direction: row.ordering_direction,
      ordering_meta: row.ordering_meta,
      collection_appearance: row.collection_appearance,
      // The real API still emits the legacy misspelling; clients read either.
      collection_appeareance: row.collection_appearance,
      has_singleton_item: row.has_singleton_item,
      hint: row.hint,
      inverse_relationships_enabled: row.inverse_relationships_enabled,
    },
    relationships: {
      fields: { data: refs('field', children.fieldIds) },
      fieldsets: { data: refs('fieldset', children.fieldsetIds) },
      singleton_item: { data: ref('item', row.singleton_item_id) },
      ordering_field: { data: ref('field', row.ordering_field_id) },
      presentation_title_field: { data: ref('field', row.presentation_title_field_id) },
      presentation_image_field: { data: ref('field', row.presentation_image_field_id) },
      title_field: { data: ref('field', row.title_field_id) },
      image_preview_field: { data: ref('field', row.image_preview_field_id) },
      excerpt_field: { data: ref('field', row.excerpt_field_id) },
      workflow: { data: ref('workflow', row.workflow_id) },
    },
    meta: { has_singleton_item: row.has_singleton_item },
  };
}
