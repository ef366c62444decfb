import type { Scope } from '../../db/environment-scope.ts';
import { findCollectionRow, withChildren } from './repo.ts';
import type { UploadCollection } from './upload-collection.ts';

export async function findUploadCollection(scope: Scope, id: string): Promise<UploadCollection> {
  const [collection] = await withChildren(scope.db, [await findCollectionRow(scope.db, id)]);
  return collection as UploadCollection;
}
