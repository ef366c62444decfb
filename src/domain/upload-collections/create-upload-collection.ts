import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { generateId } from '../ids.ts';
import { checkNewId } from '../menu/tree-rules.ts';
import { placeOf, relayout } from '../menu/tree-store.ts';
import {
  checkLabel,
  newIssues,
  placementsOf,
  type UploadCollectionInput,
} from './collection-input.ts';
import { lockedTree, withChildren } from './repo.ts';
import { COLLECTIONS, type UploadCollection } from './upload-collection.ts';

/** A new collection, at `position` among its parent's children (siblings shift) or last. */
export async function createUploadCollection(
  scope: Scope,
  input: UploadCollectionInput & { label: string },
): Promise<UploadCollection> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const nodes = await lockedTree(tx.db);
    const id = input.id ?? generateId();
    const issues = newIssues();
    checkNewId(issues, input.id, nodes);
    checkLabel(issues, input.label, true);
    const placements = placementsOf(issues, nodes, id, input.parentId ?? null, {
      ...input,
      childIds: undefined,
    });
    issues.throwIfAny();
    const place = placeOf(await relayout(tx.db, COLLECTIONS.table, nodes, placements), id);
    const row = await tx.db
      .insertInto('upload_collections')
      .values({
        id,
        label: input.label.trim(),
        position: place.position,
        parent_id: place.parentId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [created] = await withChildren(tx.db, [row]);
    return created as UploadCollection;
  });
}
