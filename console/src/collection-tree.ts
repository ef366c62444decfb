import type { ApiTypes } from '@datocms/cma-client-browser';

export type Collection = ApiTypes.UploadCollection;

/** A collection placed in the tree: how deep it sits and the labels leading to it. */
export type PlacedCollection = { collection: Collection; depth: number; path: string };

/**
 * The CMA lists collections flat, each naming its parent and its position among its
 * siblings; the console shows them as a tree. Tree order: each collection after its
 * parent, siblings by position. A collection whose parent is missing from the list (a
 * list read mid-change) is shown at the top rather than lost.
 */
export function placeCollections(list: readonly Collection[]): PlacedCollection[] {
  const byParent = groupByParent(list);
  const placed: PlacedCollection[] = [];
  const visit = (parent: string | null, depth: number, above: string) => {
    for (const collection of byParent.get(parent) ?? []) {
      const path = above ? `${above} / ${collection.label}` : collection.label;
      placed.push({ collection, depth, path });
      visit(collection.id, depth + 1, path);
    }
  };
  visit(null, 0, '');
  return placed;
}

/** The collections directly inside each parent (null: the top level), in display order. */
export function groupByParent(list: readonly Collection[]): Map<string | null, Collection[]> {
  const known = new Set(list.map((collection) => collection.id));
  const byParent = new Map<string | null, Collection[]>();
  for (const collection of list) {
    const parentId = collection.parent?.id ?? null;
    const parent = parentId !== null && known.has(parentId) ? parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), collection]);
  }
  for (const siblings of byParent.values()) siblings.sort((a, b) => a.position - b.position);
  return byParent;
}

/** The collection and every collection inside it, at any depth. */
export function collectionAndInside(list: readonly Collection[], id: string): string[] {
  const ids = [id];
  for (let index = 0; index < ids.length; index++) {
    for (const collection of list) {
      if (collection.parent?.id === ids[index] && !ids.includes(collection.id)) {
        ids.push(collection.id);
      }
    }
  }
  return ids;
}
