import type { EnvQueryable } from '../../db/environment-scope.ts';
import { loadTree } from '../menu/tree-store.ts';
import { COLLECTIONS } from './upload-collection.ts';

/**
 * A collection and its ancestors, nearest first: an upload permission entry naming a
 * collection covers the uploads of the collections inside it too. Empty for none.
 */
export async function collectionLineage(
  db: EnvQueryable,
  collectionId: string | null,
): Promise<string[]> {
  if (collectionId === null) return [];
  const parentOf = new Map(
    (await loadTree(db, COLLECTIONS.table)).map((node) => [node.id, node.parentId]),
  );
  const lineage: string[] = [];
  for (let id: string | null = collectionId; id !== null && !lineage.includes(id); ) {
    lineage.push(id);
    id = parentOf.get(id) ?? null;
  }
  return lineage;
}

/** Whether the collection exists in the environment (null, the top level, always does). */
export async function collectionExists(
  db: EnvQueryable,
  collectionId: string | null,
): Promise<boolean> {
  if (collectionId === null) return true;
  const row = await db
    .selectFrom('upload_collections')
    .select('id')
    .where('id', '=', collectionId)
    .executeTakeFirst();
  return row !== undefined;
}
