import type { RawApiTypes } from '@datocms/cma-client-browser';

type Row = RawApiTypes.Item;

/** A tree record placed on the page: how many of its ancestors are on the page above it. */
export type PlacedRow = { record: Row; depth: number };

export function parentOf(record: Row): string | null {
  const parent = record.attributes.parent_id;
  return typeof parent === 'string' ? parent : null;
}

function position(record: Row): number {
  return Number(record.attributes.position ?? 0);
}

/**
 * A page of a tree model's records (listed by position, which is per parent) laid out as
 * a tree: each record after its parent, children by position. A record whose parent is
 * not on this page starts a tree of its own at depth 0, so every row is shown once.
 */
export function treeOrder(rows: readonly Row[]): PlacedRow[] {
  const onPage = new Set(rows.map((row) => row.id));
  const childrenOf = new Map<string | null, Row[]>();
  for (const row of rows) {
    const parent = parentOf(row);
    const key = parent !== null && onPage.has(parent) ? parent : null;
    childrenOf.set(key, [...(childrenOf.get(key) ?? []), row]);
  }
  const placed: PlacedRow[] = [];
  const visit = (parent: string | null, depth: number) => {
    const children = [...(childrenOf.get(parent) ?? [])].sort((a, b) => position(a) - position(b));
    for (const record of children) {
      placed.push({ record, depth });
      visit(record.id, depth + 1);
    }
  };
  visit(null, 0);
  return placed;
}

/** The record and the records of the page under it, at any depth. */
export function recordAndUnder(rows: readonly Row[], id: string): string[] {
  const ids = [id];
  for (let index = 0; index < ids.length; index++) {
    for (const row of rows) {
      if (parentOf(row) === ids[index] && !ids.includes(row.id)) ids.push(row.id);
    }
  }
  return ids;
}
