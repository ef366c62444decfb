/**
 * Position rules shared by both menus. Positions are contiguous (1..n) within each
 * sibling group (items with the same parent), and every write lays the whole tree out
 * again so gaps left by other deletions heal:
 * - an item given an explicit position takes that slot (clamped to the end of its
 *   group) and its siblings keep their relative order around it, shifting by one;
 * - an item moved to another parent without a position goes to the end of that group;
 * - removing an item closes its gap, and its children move to the end of the root.
 */

export type TreeNode = { id: string; parentId: string | null; position: number };

/** Where a request puts an item; position null = keep its slot, or go last when moving. */
export type Placement = { parentId: string | null; position: number | null };

type Entry = { id: string; parentId: string | null; pinned: number | null; moved: boolean };

/**
 * The tree after the change. `nodes` must be in display order (position, then age);
 * placements for unknown ids add new items.
 */
export function layoutTree(
  nodes: TreeNode[],
  placements: ReadonlyMap<string, Placement>,
  removed: ReadonlySet<string> = new Set(),
): TreeNode[] {
  const entries: Entry[] = [];
  for (const node of nodes) {
    if (removed.has(node.id)) continue;
    const placement = placements.get(node.id);
    const orphaned = node.parentId !== null && removed.has(node.parentId);
    const parentId = placement ? placement.parentId : orphaned ? null : node.parentId;
    entries.push({
      id: node.id,
      parentId,
      pinned: placement?.position ?? null,
      moved: parentId !== node.parentId,
    });
  }
  const known = new Set(nodes.map((node) => node.id));
  for (const [id, placement] of placements) {
    if (!known.has(id)) {
      entries.push({ id, parentId: placement.parentId, pinned: placement.position, moved: true });
    }
  }

  const groups = new Map<string | null, Entry[]>();
  for (const entry of entries) {
    const group = groups.get(entry.parentId);
    if (group) group.push(entry);
    else groups.set(entry.parentId, [entry]);
  }
  return [...groups.entries()].flatMap(([parentId, members]) =>
    orderGroup(members).map((id, index) => ({ id, parentId, position: index + 1 })),
  );
}

/** Pinned items fill their slots; the rest (staying first, then arrivals) fill the others. */
function orderGroup(members: Entry[]): string[] {
  const pinned = members
    .filter((m) => m.pinned !== null)
    .sort((a, b) => (a.pinned ?? 0) - (b.pinned ?? 0));
  const others = [
    ...members.filter((m) => m.pinned === null && !m.moved),
    ...members.filter((m) => m.pinned === null && m.moved),
  ];
  const order: string[] = [];
  while (pinned.length > 0 || others.length > 0) {
    const next = pinned[0];
    const takePinned = next && ((next.pinned ?? 0) <= order.length + 1 || others.length === 0);
    const taken = takePinned ? pinned.shift() : others.shift();
    if (taken) order.push(taken.id);
  }
  return order;
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
