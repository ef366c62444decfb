import type { FieldRow } from '../../db/schema.ts';
import type { GroupKey } from '../positions/order.ts';

/** The group a field's position counts in: its model, and its fieldset if it has one. */
export function groupOf(field: Pick<FieldRow, 'item_type_id' | 'fieldset_id'>): GroupKey {
  return { itemTypeId: field.item_type_id, fieldsetId: field.fieldset_id };
}
