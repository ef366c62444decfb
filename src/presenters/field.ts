import type { FieldChange, FieldView } from '../domain/fields/field-view.ts';
import { presentItemType } from './item-type.ts';
import { type Resource, ref } from './jsonapi.ts';

/**
 * A field as the API shows it: no meta, no legacy `appeareance`. Nothing the
 * database adds (seq, created_at) shows: a new field is presented before it is written.
 */
export function presentField(row: FieldView): Resource {
  return {
    type: 'field',
    id: row.id,
    attributes: {
      label: row.label,
      field_type: row.field_type,
      api_key: row.api_key,
      localized: row.localized,
      validators: row.validators,
      appearance: row.appearance,
      position: row.position,
      hint: row.hint,
      default_value: row.default_value,
      deep_filtering_enabled: row.deep_filtering_enabled,
      content_link_enabled: row.content_link_enabled,
    },
    relationships: {
      item_type: { data: ref('item_type', row.item_type_id) },
      fieldset: { data: ref('fieldset', row.fieldset_id) },
    },
  };
}

/** Field changes are jobs in DatoCMS; the document is the job's payload. */
export function presentFieldChange(change: FieldChange) {
  return {
    data: presentField(change.field),
    included: [presentItemType(change.model), ...change.shifted.map(presentField)],
  };
}
