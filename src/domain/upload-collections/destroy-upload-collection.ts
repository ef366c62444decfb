import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { Placement } from '../menu/tree.ts';
import { relayout } from '../menu/tree-store.ts';
import { findCollectionRow, lockedTree, withChildren } from './repo.ts';
import { COLLECTIONS, type UploadCollection } from './upload-collection.ts';

/**
 * Removes a collection and answers it as it was. Its children move up to its parent
 * (after their new siblings, in their order); its uploads are left in no collection
 * (the uploads' foreign key clears them). Uploads are never deleted with a collection.
 */
export async function destroyUploadCollection(scope: Scope, id: string): Promise<UploadCollection> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const nodes = await lockedTree(tx.db);
    const [deleted] = await withChildren(tx.db, [await findCollectionRow(tx.db, id)]);
    const gone = deleted as UploadCollection;
    const moves = new Map<string, Placement>(
      gone.childIds.map((childId) => [childId, { parentId: gone.parentId, position: null }]),
    );
    await relayout(tx.db, COLLECTIONS.table, nodes, moves, new Set([id]));
    await tx.db.deleteFrom('upload_collections').where('id', '=', id).execute();
    return gone;
  });
}
