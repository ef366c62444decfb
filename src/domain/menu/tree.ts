/**
 * Position rules shared by both menus. A position is any integer ≥ 0, kept as
 * sent, and a change shifts the siblings (items with the same parent) the way DatoCMS does,
 * which the `datocms` CLI's migration generator replays when it plans menu moves:
 * - an item placed at `p` moves every sibling at `p` or after one place down;
 * - an item taken out (moved away or removed) moves every sibling after it one place up;
 * - an item placed with no position keeps its place, or goes last (one past the highest
 *   position) when it changes parent or is new; the children of a removed item go last at
 *   the top level.
 * Several items placed at once (a reorder) take the positions sent; the other items of the
 * groups they touch keep their order and fill the free positions from the first one (0 when
 * a listed item took 0, else 1).
 */

export type TreeNode = { id: string; parentId: string | null; position: number };

/** Where a request puts an item; position null = keep its slot, or go last when moving. */
export type Placement = { parentId: string | null; position: number | null };

function siblingsOf(tree: TreeNode[], parentId: string | null): TreeNode[] {
  return tree.filter((node) => node.parentId === parentId);
}

function endOf(tree: TreeNode[], parentId: string | null): number {
  return siblingsOf(tree, parentId).reduce((max, node) => Math.max(max, node.position), 0) + 1;
}

/** Takes the item out of its group: the siblings after it move one place up. */
function takeOut(tree: TreeNode[], node: TreeNode): TreeNode[] {
  return tree
    .filter((other) => other.id !== node.id)
    .map((other) =>
      other.parentId === node.parentId && other.position > node.position
        ? { ...other, position: other.position - 1 }
        : other,
    );
}

/** Puts the item at `position` of its parent's group: siblings from there on move down. */
function putIn(tree: TreeNode[], node: TreeNode): TreeNode[] {
  const shifted = tree.map((other) =>
    other.parentId === node.parentId && other.position >= node.position
      ? { ...other, position: other.position + 1 }
      : other,
  );
  return [...shifted, node];
}

function placeOne(tree: TreeNode[], id: string, placement: Placement): TreeNode[] {
  const current = tree.find((node) => node.id === id);
  const stays = current !== undefined && current.parentId === placement.parentId;
  if (current && stays && placement.position === null) return tree;
  const rest = current ? takeOut(tree, current) : tree;
  const position =
    placement.position ?? (stays && current ? current.position : endOf(rest, placement.parentId));
  return putIn(rest, { id, parentId: placement.parentId, position });
}

function placeMany(tree: TreeNode[], requested: ReadonlyMap<string, Placement>): TreeNode[] {
  // An item asked to stay under its parent with no position keeps its place among the rest.
  const placements = new Map(
    [...requested].filter(([id, p]) => {
      const current = tree.find((node) => node.id === id);
      return !(current && current.parentId === p.parentId && p.position === null);
    }),
  );
  const pinned = [...placements].filter(([, p]) => p.position !== null);
  const appended = [...placements].filter(([, p]) => p.position === null);
  const touched = new Set<string | null>([...placements.values()].map((p) => p.parentId));
  for (const node of tree) if (placements.has(node.id)) touched.add(node.parentId);
  const rest = tree
    .filter((node) => !placements.has(node.id))
    .sort((a, b) => a.position - b.position);
  const result: TreeNode[] = [];
  for (const parentId of touched) {
    const taken = new Set(
      pinned.filter(([, p]) => p.parentId === parentId).map(([, p]) => p.position),
    );
    let free = taken.has(0) ? 0 : 1;
    for (const node of rest.filter((candidate) => candidate.parentId === parentId)) {
      while (taken.has(free)) free++;
      result.push({ ...node, position: free++ });
    }
  }
  result.push(...rest.filter((node) => !touched.has(node.parentId)));
  result.push(
    ...pinned.map(([id, p]) => ({ id, parentId: p.parentId, position: p.position ?? 0 })),
  );
  for (const [id, p] of appended)
    result.push({ id, parentId: p.parentId, position: endOf(result, p.parentId) });
  return result;
}

/**
 * The tree after the change. `nodes` must be in display order (position, then age);
 * placements for unknown ids add new items.
 */
export function layoutTree(
  nodes: TreeNode[],
  placements: ReadonlyMap<string, Placement>,
  removed: ReadonlySet<string> = new Set(),
): TreeNode[] {
  let tree = nodes;
  for (const id of removed) {
    const node = tree.find((candidate) => candidate.id === id);
    if (node) tree = takeOut(tree, node);
  }
  for (const orphan of tree.filter((node) => node.parentId !== null && removed.has(node.parentId)))
    tree = placeOne(tree, orphan.id, { parentId: null, position: null });
  const single = placements.size === 1 ? [...placements][0] : undefined;
  if (single) return placeOne(tree, single[0], single[1]);
  return placements.size === 0 ? tree : placeMany(tree, placements);
}

/** Whether following parents up from `id` leads back to `id`. */
export function isOwnAncestor(parentOf: ReadonlyMap<string, string | null>, id: string): boolean {
  const seen = new Set<string>();
  let current = parentOf.get(id) ?? null;
  while (current !== null && !seen.has(current)) {
    if (current === id) return true;
    seen.add(current);
    current = parentOf.get(current) ?? null;
  }
  return false;
}
