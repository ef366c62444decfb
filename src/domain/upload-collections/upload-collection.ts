import type { UploadCollectionRow } from '../../db/schema.ts';
import type { MenuKind } from '../menu/reorder.ts';

/** A folder of uploads: a node of a tree, placed among its siblings by position. */
export type UploadCollection = Readonly<{
  id: string;
  label: string;
  position: number;
  parentId: string | null;
  /** Its children in display order. */
  childIds: readonly string[];
}>;

/** Collections are laid out with the menus' tree rules (positions, moves, cycles). */
export const COLLECTIONS: MenuKind = {
  table: 'upload_collections',
  type: 'upload_collection',
  recordType: 'UploadCollection',
  label: 'Upload collection',
};

export function collectionFromRow(
  row: UploadCollectionRow,
  childIds: readonly string[],
): UploadCollection {
  return {
    id: row.id,
    label: row.label,
    position: row.position,
    parentId: row.parent_id,
    childIds,
  };
}
