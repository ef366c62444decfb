import type { Scope } from '../../db/environment-scope.ts';
import { withChildren } from './repo.ts';
import type { UploadCollection } from './upload-collection.ts';

/**
 * Every collection of the environment (not paginated, as in DatoCMS), in display order:
 * by position, then age. `ids` narrows the list; unknown ids are skipped.
 */
export async function listUploadCollections(
  scope: Scope,
  ids?: readonly string[],
): Promise<UploadCollection[]> {
  if (ids?.length === 0) return [];
  let query = scope.db
    .selectFrom('upload_collections')
    .selectAll()
    .orderBy('position')
    .orderBy('seq');
  if (ids) query = query.where('id', 'in', ids);
  return withChildren(scope.db, await query.execute());
}
