import type { EnvQueryable, EnvTrx, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { MenuItemRow } from '../../db/schema.ts';
import { NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import {
  applyMenuItemInput,
  type MenuItemDraft,
  type MenuItemInput,
  NEW_MENU_ITEM,
  validateMenuItem,
} from './menu-item-rules.ts';
import { type MenuKind, type ReorderEntry, reorderMenu } from './reorder.ts';
import type { TreeNode } from './tree.ts';
import { childIdsOf, loadTree, placeOf, relayout } from './tree-store.ts';

const MENU: MenuKind = {
  table: 'menu_items',
  type: 'menu_item',
  recordType: 'MenuItem',
  label: 'Menu item',
};

/** A menu item with the ids of its children, as stored now. */
export type MenuItemView = { row: Omit<MenuItemRow, 'seq' | 'created_at'>; childIds: string[] };

/** Pairs rows with their children as stored now. */
async function withChildren(db: EnvQueryable): Promise<(row: MenuItemRow) => MenuItemView> {
  const children = childIdsOf(await loadTree(db, MENU.table));
  return (row) => ({ row, childIds: children.get(row.id) ?? [] });
}

async function findOrFail(db: EnvQueryable, id: string): Promise<MenuItemRow> {
  const row = await db.selectFrom('menu_items').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound(MENU.label, id);
  return row;
}

/** Every menu item, oldest first; `ids` narrows the list (unknown ids are skipped). */
export async function listMenuItems(scope: Scope, ids?: string[]): Promise<MenuItemView[]> {
  if (ids?.length === 0) return [];
  let query = scope.db.selectFrom('menu_items').selectAll().orderBy('seq');
  if (ids) query = query.where('id', 'in', ids);
  const rows = await query.execute();
  return rows.map(await withChildren(scope.db));
}

export async function findMenuItem(scope: Scope, id: string): Promise<MenuItemView> {
  const row = await findOrFail(scope.db, id);
  return (await withChildren(scope.db))(row);
}

/** Validates the merged state, then makes room for the item among its new siblings. */
async function checkAndPlace(
  trx: EnvTrx,
  id: string,
  draft: MenuItemDraft,
  input: MenuItemInput,
): Promise<TreeNode> {
  const nodes = await loadTree(trx, MENU.table);
  const itemType =
    draft.item_type_id === null
      ? undefined
      : await trx
          .selectFrom('item_types')
          .select('modular_block')
          .where('id', '=', draft.item_type_id)
          .executeTakeFirst();
  const itemTypeFilter =
    draft.item_type_filter_id === null
      ? undefined
      : await trx
          .selectFrom('item_type_filters')
          .select('item_type_id')
          .where('id', '=', draft.item_type_filter_id)
          .executeTakeFirst();
  validateMenuItem(id, draft, input, { nodes, itemType, itemTypeFilter });
  const placement = { parentId: draft.parent_id, position: input.attributes.position ?? null };
  return placeOf(await relayout(trx, MENU.table, nodes, new Map([[id, placement]])), id);
}

export async function createMenuItem(scope: Scope, input: MenuItemInput): Promise<MenuItemView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const id = input.id ?? generateId();
    const draft = applyMenuItemInput(NEW_MENU_ITEM, input);
    const place = await checkAndPlace(trx, id, draft, input);
    const row = await trx
      .insertInto('menu_items')
      .values({ ...draft, id, position: place.position })
      .returningAll()
      .executeTakeFirstOrThrow();
    return (await withChildren(trx))(row);
  });
}

export async function updateMenuItem(
  scope: Scope,
  id: string,
  input: MenuItemInput,
): Promise<MenuItemView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const draft = applyMenuItemInput(await findOrFail(trx, id), input);
    const place = await checkAndPlace(trx, id, draft, input);
    const row = await trx
      .updateTable('menu_items')
      .set({ ...draft, position: place.position })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return (await withChildren(trx))(row);
  });
}

/** Returns the item as it was; its children move to the end of the top level. */
export async function destroyMenuItem(scope: Scope, id: string): Promise<MenuItemView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const deleted = (await withChildren(trx))(await findOrFail(trx, id));
    await relayout(trx, MENU.table, await loadTree(trx, MENU.table), new Map(), new Set([id]));
    await trx.deleteFrom('menu_items').where('id', '=', id).execute();
    return deleted;
  });
}

/** Returns the listed items after the move, in request order. */
export async function reorderMenuItems(
  scope: Scope,
  entries: ReorderEntry[],
): Promise<MenuItemView[]> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    await reorderMenu(trx, MENU, entries);
    const ids = entries.map((entry) => entry.id);
    if (ids.length === 0) return [];
    const rows = await trx.selectFrom('menu_items').selectAll().where('id', 'in', ids).execute();
    const show = await withChildren(trx);
    const byId = new Map(rows.map((row) => [row.id, show(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  });
}
