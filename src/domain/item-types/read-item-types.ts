import type { EnvQueryable, Scope } from '../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { NotFound } from '../errors.ts';
import { findItemType as findItemTypeRow } from '../schema/model-rows.ts';
import type { ModelView } from '../schema/model-state.ts';
import { fieldsReferencing } from '../schema/references.ts';
import { viewsOf } from './model-views.ts';
import * as repo from './repo.ts';

export async function findItemTypeOrFail(
  db: EnvQueryable,
  idOrApiKey: string,
): Promise<ItemTypeRow> {
  const row = await findItemTypeRow(db, idOrApiKey);
  if (!row) throw new NotFound('Item type', idOrApiKey);
  return row;
}

/** Models having a field whose validators reference this one. */
export async function referencingItemTypes(scope: Scope, idOrApiKey: string): Promise<ModelView[]> {
  const target = await findItemTypeOrFail(scope.db, idOrApiKey);
  const fields = await fieldsReferencing(scope.db, target.id);
  const ids = [...new Set(fields.map((field) => field.item_type_id))];
  const rows = (await repo.listItemTypes(scope.db)).filter((row) => ids.includes(row.id));
  return viewsOf(scope.db, rows);
}
