import type { ItemTypeFilterRow } from '../db/schema.ts';
import { type Resource, ref } from './jsonapi.ts';

export function presentItemTypeFilter(row: ItemTypeFilterRow): Resource {
  return {
    type: 'item_type_filter',
    id: row.id,
    attributes: {
      name: row.name,
      filter: row.filter,
      columns: row.columns,
      order_by: row.order_by,
      shared: row.shared,
    },
    relationships: { item_type: { data: ref('item_type', row.item_type_id) } },
  };
}
