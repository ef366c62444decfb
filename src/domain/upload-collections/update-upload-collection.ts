import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { placeOf, relayout } from '../menu/tree-store.ts';
import {
  checkLabel,
  newIssues,
  placementsOf,
  type UploadCollectionInput,
} from './collection-input.ts';
import { findCollectionRow, lockedTree, withChildren } from './repo.ts';
import { COLLECTIONS, type UploadCollection } from './upload-collection.ts';

/**
 * Renames or moves a collection. `children` lists collections to hold, in that order
 * (first at position 1); its other children stay, after them. Sending the collection as
 * it was read (the client's spread of a fetched object) changes nothing.
 */
export async function updateUploadCollection(
  scope: Scope,
  id: string,
  input: UploadCollectionInput,
): Promise<UploadCollection> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const nodes = await lockedTree(tx.db);
    const current = await findCollectionRow(tx.db, id);
    const issues = newIssues();
    checkLabel(issues, input.label, false);
    const parentId = input.parentId === undefined ? current.parent_id : input.parentId;
    const placements = placementsOf(issues, nodes, id, parentId, input);
    issues.throwIfAny();
    const place = placeOf(await relayout(tx.db, COLLECTIONS.table, nodes, placements), id);
    const row = await tx.db
      .updateTable('upload_collections')
      .set({
        label: input.label?.trim() ?? current.label,
        position: place.position,
        parent_id: place.parentId,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const [updated] = await withChildren(tx.db, [row]);
    return updated as UploadCollection;
  });
}
