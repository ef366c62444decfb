import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { type ReorderEntry, reorderMenu } from '../menu/reorder.ts';
import { collectionsByIds, lockedTree } from './repo.ts';
import { COLLECTIONS, type UploadCollection } from './upload-collection.ts';

/**
 * Moves every listed collection to its parent and position at once (the tree rules of
 * menus: the other siblings keep their order around them). Returns the listed ones.
 */
export async function reorderUploadCollections(
  scope: Scope,
  entries: ReorderEntry[],
): Promise<UploadCollection[]> {
  return inEnvironmentTransaction(scope, async (tx) => {
    await lockedTree(tx.db);
    await reorderMenu(tx.db, COLLECTIONS, entries);
    return collectionsByIds(
      tx.db,
      entries.map((entry) => entry.id),
    );
  });
}
