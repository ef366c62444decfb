import type { MenuItemView } from '../domain/menu/menu-items.ts';
import type { SchemaMenuItemView } from '../domain/menu/schema-menu-items.ts';
import { type Resource, ref, refs } from './jsonapi.ts';

export function presentMenuItem({ row, childIds }: MenuItemView): Resource {
  return {
    type: 'menu_item',
    id: row.id,
    attributes: {
      label: row.label,
      external_url: row.external_url,
      position: row.position,
      open_in_new_tab: row.open_in_new_tab,
    },
    relationships: {
      item_type: { data: ref('item_type', row.item_type_id) },
      item_type_filter: { data: ref('item_type_filter', row.item_type_filter_id) },
      parent: { data: ref('menu_item', row.parent_id) },
      children: { data: refs('menu_item', childIds) },
    },
  };
}

export function presentSchemaMenuItem({ row, childIds }: SchemaMenuItemView): Resource {
  return {
    type: 'schema_menu_item',
    id: row.id,
    attributes: { label: row.label, position: row.position, kind: row.kind },
    relationships: {
      item_type: { data: ref('item_type', row.item_type_id) },
      parent: { data: ref('schema_menu_item', row.parent_id) },
      children: { data: refs('schema_menu_item', childIds) },
    },
  };
}
