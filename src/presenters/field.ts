import type { FieldRow } from '../db/schema.ts';
import { type Resource, ref } from './jsonapi.ts';

/**
 * A field as the API shows it (spec 02 §2): no meta, no legacy `appeareance`. Nothing the
 * database adds (seq, created_at) shows: a new field is presented before it is written.
 */
export function presentField(row: Omit<FieldRow, 'seq' | 'created_at'>): Resource {
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
