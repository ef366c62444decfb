import type { EnvQueryable, EnvTrx } from '../../db/environment-scope.ts';
import { layoutTree, type Placement, type TreeNode } from './tree.ts';

/** Tables laid out as a tree of positions: both menus, and upload collections. */
export type MenuTable = 'menu_items' | 'schema_menu_items' | 'upload_collections';

/** Every item of a menu in display order; menus are small enough to lay out whole. */
export async function loadTree(db: EnvQueryable, table: MenuTable): Promise<TreeNode[]> {
  const rows = await db
    .selectFrom(table)
    .select(['id', 'parent_id', 'position'])
    .orderBy('position')
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ id: row.id, parentId: row.parent_id, position: row.position }));
}

/** Each item's child ids, in the order of `nodes` (display order, as loadTree gives). */
export function childIdsOf(nodes: TreeNode[]): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const node of nodes) {
    if (node.parentId === null) continue;
    const siblings = children.get(node.parentId);
    if (siblings) siblings.push(node.id);
    else children.set(node.parentId, [node.id]);
  }
  return children;
}

/**
 * Applies a change to the tree and stores every existing item whose parent or
 * position moved. Inserting new items and deleting removed ones is the caller's job;
 * the returned places tell it where new items go.
 */
export async function relayout(
  trx: EnvTrx,
  table: MenuTable,
  nodes: TreeNode[],
  placements: ReadonlyMap<string, Placement>,
  removed: ReadonlySet<string> = new Set(),
): Promise<Map<string, TreeNode>> {
  const before = new Map(nodes.map((node) => [node.id, node]));
  const after = layoutTree(nodes, placements, removed);
  for (const node of after) {
    const was = before.get(node.id);
    if (!was || (was.parentId === node.parentId && was.position === node.position)) continue;
    await trx
      .updateTable(table)
      .set({ parent_id: node.parentId, position: node.position })
      .where('id', '=', node.id)
      .execute();
  }
  return new Map(after.map((node) => [node.id, node]));
}

/** The place relayout gave an item the change named. */
export function placeOf(places: ReadonlyMap<string, TreeNode>, id: string): TreeNode {
  const place = places.get(id);
  if (!place) throw new Error(`menu item ${id} is missing from the layout`);
  return place;
}
