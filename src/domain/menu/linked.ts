import { sql } from 'kysely';
import type { EnvQueryable, EnvTrx } from '../../db/environment-scope.ts';
import type { MenuItemRow } from '../../db/schema.ts';
import { loadTree, type MenuTable, relayout } from './tree-store.ts';

/**
 * The next free position at the end of the top level (1 when empty), as a subquery of the
 * INSERT that takes it: no round trip of its own. The environment's lock keeps another
 * change from taking the same position meanwhile.
 */
function endOfTopLevel(db: EnvQueryable, table: MenuTable) {
  return db
    .selectFrom(table)
    .select(sql<number>`coalesce(max(position), 0) + 1`.as('position'))
    .where('parent_id', 'is', null);
}

/** A menu entry's row before it is written: the database adds seq and created_at. */
export type NewMenuItem = Omit<MenuItemRow, 'seq' | 'created_at'>;

type LinkedModel = { id: string; label: string; itemTypeId: string };

/** The content-navigation entry created with a model, at the top level: all but its position. */
function linkedColumns(item: LinkedModel): Omit<NewMenuItem, 'position'> {
  return {
    id: item.id,
    label: item.label,
    external_url: null,
    open_in_new_tab: false,
    item_type_id: item.itemTypeId,
    item_type_filter_id: null,
    parent_id: null,
  };
}

/** That entry's row at `position` (the end of the top level, read under the lock). */
export function linkedMenuItem(item: LinkedModel, position: number): NewMenuItem {
  return { ...linkedColumns(item), position };
}

/** The insert of a menu entry's row, not yet sent: the model's event carries it. */
export function menuItemInsert(trx: EnvTrx, row: NewMenuItem) {
  return trx.insertInto('menu_items').values(row);
}

/**
 * The insert of a model's entry appended at the end of the top level by a subquery, not
 * yet sent: for a change that has not read where that end is.
 */
export function appendedMenuItemInsert(trx: EnvTrx, item: LinkedModel) {
  return trx
    .insertInto('menu_items')
    .values({ ...linkedColumns(item), position: endOfTopLevel(trx, 'menu_items') });
}

/** The end of the menu's top level, as a column of a read (newModelFacts). */
export function menuTopLevelEnd(db: EnvQueryable) {
  return endOfTopLevel(db, 'menu_items');
}

/**
 * The insert of the schema-sidebar entry every model and block gets, appended at the top
 * level, not yet sent: the model's event carries it (emitEvent's LastWrites).
 */
export function linkedSchemaMenuItemInsert(
  trx: EnvTrx,
  item: { id: string; itemTypeId: string; kind: 'item_type' | 'modular_block' },
) {
  return trx.insertInto('schema_menu_items').values({
    id: item.id,
    label: null,
    position: endOfTopLevel(trx, 'schema_menu_items'),
    kind: item.kind,
    item_type_id: item.itemTypeId,
    parent_id: null,
  });
}

/**
 * Removes a model's entries from a menu, closing the gaps they leave (their children
 * move to the top level, as when such an entry is deleted through its own endpoint).
 */
export async function removeMenuEntriesOf(
  trx: EnvTrx,
  table: MenuTable,
  itemTypeId: string,
): Promise<void> {
  const linked = await trx
    .selectFrom(table)
    .select('id')
    .where('item_type_id', '=', itemTypeId)
    .execute();
  if (linked.length === 0) return;
  const ids = linked.map((row) => row.id);
  await relayout(trx, table, await loadTree(trx, table), new Map(), new Set(ids));
  await trx.deleteFrom(table).where('id', 'in', ids).execute();
}
