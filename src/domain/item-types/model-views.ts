import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { loadChildren } from '../schema/model-rows.ts';
import type { ModelView } from '../schema/model-state.ts';

/** Models' views (row and children) from their rows: one statement reads the children. */
export async function viewOf(db: EnvQueryable, row: ItemTypeRow): Promise<ModelView> {
  const children = await loadChildren(db, [row.id]);
  return { itemType: row, children: children.get(row.id) ?? { fieldIds: [], fieldsetIds: [] } };
}

export async function viewsOf(db: EnvQueryable, rows: ItemTypeRow[]): Promise<ModelView[]> {
  const children = await loadChildren(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    itemType: row,
    children: children.get(row.id) ?? { fieldIds: [], fieldsetIds: [] },
  }));
}
