import type { EnvQueryable, Scope } from '../../db/environment-scope.ts';
import type { FieldsetRow } from '../../db/schema.ts';
import { NotFound } from '../errors.ts';
import { findItemTypeOrFail } from '../item-types/read-item-types.ts';

export async function findFieldsetOrFail(db: EnvQueryable, id: string): Promise<FieldsetRow> {
  const row = await db.selectFrom('fieldsets').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Fieldset', id);
  return row;
}

export async function listFieldsets(scope: Scope, itemTypeIdOrKey: string): Promise<FieldsetRow[]> {
  const itemType = await findItemTypeOrFail(scope.db, itemTypeIdOrKey);
  const rows = await scope.db
    .selectFrom('fieldsets')
    .selectAll()
    .where('item_type_id', '=', itemType.id)
    .orderBy('position')
    .orderBy('seq')
    .execute();
  return rows;
}

export async function findFieldset(scope: Scope, id: string): Promise<FieldsetRow> {
  return await findFieldsetOrFail(scope.db, id);
}
