import type { EnvQueryable, EnvTrx } from '../../db/environment-scope.ts';
import type { UploadCollectionRow } from '../../db/schema.ts';
import { NotFound } from '../errors.ts';
import type { TreeNode } from '../menu/tree.ts';
import { childIdsOf, loadTree } from '../menu/tree-store.ts';
import { COLLECTIONS, collectionFromRow, type UploadCollection } from './upload-collection.ts';

export async function findCollectionRow(
  db: EnvQueryable,
  id: string,
): Promise<UploadCollectionRow> {
  const row = await db
    .selectFrom('upload_collections')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new NotFound(COLLECTIONS.label, id);
  return row;
}

/**
 * The tree, read after locking every collection: changes to the tree (moves, removals)
 * run one at a time, so two moves cannot each pass the cycle check and make a cycle.
 */
export async function lockedTree(trx: EnvTrx): Promise<TreeNode[]> {
  await trx.selectFrom('upload_collections').select('id').forUpdate().execute();
  return loadTree(trx, COLLECTIONS.table);
}

/** Rows as collections, with their children as stored now. */
export async function withChildren(
  db: EnvQueryable,
  rows: readonly UploadCollectionRow[],
): Promise<UploadCollection[]> {
  const children = childIdsOf(await loadTree(db, COLLECTIONS.table));
  return rows.map((row) => collectionFromRow(row, children.get(row.id) ?? []));
}

export async function collectionsByIds(
  db: EnvQueryable,
  ids: readonly string[],
): Promise<UploadCollection[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('upload_collections')
    .selectAll()
    .where('id', 'in', ids)
    .execute();
  const byId = new Map((await withChildren(db, rows)).map((c) => [c.id, c]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
