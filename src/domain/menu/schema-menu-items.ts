import type { EnvQueryable, EnvTrx, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { SchemaMenuItemRow } from '../../db/schema.ts';
import { DomainError, NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import { type MenuKind, type ReorderEntry, reorderMenu } from './reorder.ts';
import {
  applySchemaMenuItemInput,
  NEW_SCHEMA_MENU_ITEM,
  type SchemaMenuItemDraft,
  type SchemaMenuItemInput,
  schemaMenuPlacements,
  validateSchemaMenuItem,
} from './schema-menu-item-rules.ts';
import type { TreeNode } from './tree.ts';
import { childIdsOf, loadTree, placeOf, relayout } from './tree-store.ts';

const MENU: MenuKind = {
  table: 'schema_menu_items',
  type: 'schema_menu_item',
  recordType: 'SchemaMenuItem',
  label: 'Schema menu item',
};

/** A menu item with the ids of its children, as stored now. */
export type SchemaMenuItemView = { row: SchemaMenuItemRow; childIds: string[] };

/** Pairs rows with their children as stored now. */
async function withChildren(
  db: EnvQueryable,
): Promise<(row: SchemaMenuItemRow) => SchemaMenuItemView> {
  const children = childIdsOf(await loadTree(db, MENU.table));
  return (row) => ({ row, childIds: children.get(row.id) ?? [] });
}

async function findOrFail(db: EnvQueryable, id: string): Promise<SchemaMenuItemRow> {
  const row = await db
    .selectFrom('schema_menu_items')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new NotFound(MENU.label, id);
  return row;
}

/** Every schema menu item, oldest first; `ids` narrows the list (unknown ids are skipped). */
export async function listSchemaMenuItems(
  scope: Scope,
  ids?: string[],
): Promise<SchemaMenuItemView[]> {
  if (ids?.length === 0) return [];
  let query = scope.db.selectFrom('schema_menu_items').selectAll().orderBy('seq');
  if (ids) query = query.where('id', 'in', ids);
  const rows = await query.execute();
  return rows.map(await withChildren(scope.db));
}

export async function findSchemaMenuItem(scope: Scope, id: string): Promise<SchemaMenuItemView> {
  const row = await findOrFail(scope.db, id);
  return (await withChildren(scope.db))(row);
}

/** Validates the merged state, then moves this item (and any children it lists). */
async function checkAndPlace(
  trx: EnvTrx,
  id: string,
  before: SchemaMenuItemDraft | null,
  next: SchemaMenuItemDraft,
  input: SchemaMenuItemInput,
): Promise<TreeNode> {
  const nodes = await loadTree(trx, MENU.table);
  const placements = schemaMenuPlacements(id, next, input, nodes);
  validateSchemaMenuItem(id, before, next, input, { nodes, placements });
  return placeOf(await relayout(trx, MENU.table, nodes, placements), id);
}

export async function createSchemaMenuItem(
  scope: Scope,
  input: SchemaMenuItemInput,
): Promise<SchemaMenuItemView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const id = input.id ?? generateId();
    const draft = applySchemaMenuItemInput(NEW_SCHEMA_MENU_ITEM, input);
    const place = await checkAndPlace(trx, id, null, draft, input);
    const row = await trx
      .insertInto('schema_menu_items')
      .values({ ...draft, id, position: place.position })
      .returningAll()
      .executeTakeFirstOrThrow();
    return (await withChildren(trx))(row);
  });
}

export async function updateSchemaMenuItem(
  scope: Scope,
  id: string,
  input: SchemaMenuItemInput,
): Promise<SchemaMenuItemView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const before = await findOrFail(trx, id);
    const draft = applySchemaMenuItemInput(before, input);
    const place = await checkAndPlace(trx, id, before, draft, input);
    const row = await trx
      .updateTable('schema_menu_items')
      .set({ ...draft, position: place.position })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return (await withChildren(trx))(row);
  });
}

/** Returns the item as it was; its children move to the end of the top level. */
export async function destroySchemaMenuItem(scope: Scope, id: string): Promise<SchemaMenuItemView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const row = await findOrFail(trx, id);
    if (row.item_type_id !== null) {
      throw new DomainError(
        'CANNOT_CREATE_OR_DESTROY_SCHEMA_MENU_ITEM_LINKED_TO_ITEM_TYPE',
        'schema menu items of models are deleted with the model',
      );
    }
    const deleted = (await withChildren(trx))(row);
    await relayout(trx, MENU.table, await loadTree(trx, MENU.table), new Map(), new Set([id]));
    await trx.deleteFrom('schema_menu_items').where('id', '=', id).execute();
    return deleted;
  });
}

/** Returns the listed items after the move, in request order. */
export async function reorderSchemaMenuItems(
  scope: Scope,
  entries: ReorderEntry[],
): Promise<SchemaMenuItemView[]> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    await reorderMenu(trx, MENU, entries);
    const ids = entries.map((entry) => entry.id);
    if (ids.length === 0) return [];
    const rows = await trx
      .selectFrom('schema_menu_items')
      .selectAll()
      .where('id', 'in', ids)
      .execute();
    const show = await withChildren(trx);
    const byId = new Map(rows.map((row) => [row.id, show(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  });
}
