import type { FieldsetRow } from '../db/schema.ts';
import type { SchemaMember } from '../domain/fieldsets/reorder.ts';
import { presentField } from './field.ts';
import { type Resource, ref } from './jsonapi.ts';

/** A fieldset as the API shows it. */
export function presentFieldset(row: FieldsetRow): Resource {
  return {
    type: 'fieldset',
    id: row.id,
    attributes: {
      title: row.title,
      hint: row.hint,
      position: row.position,
      collapsible: row.collapsible,
      start_collapsed: row.start_collapsed,
    },
    relationships: {
      item_type: { data: ref('item_type', row.item_type_id) },
    },
  };
}

/** A reordered member, as what it is. */
export function presentSchemaMember(member: SchemaMember): Resource {
  return member.kind === 'field' ? presentField(member.field) : presentFieldset(member.fieldset);
}
