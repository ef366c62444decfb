import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { RecordField } from '../fields/field-types/record-values.ts';

/** A field as records read it: its identity, type, localization, validators and default. */
export type ItemField = RecordField & { item_type_id: string; default_value: unknown };

/** The `fields` columns an ItemField is read from; one list for every reader of it. */
export const ITEM_FIELD_COLUMNS = [
  'id',
  'item_type_id',
  'api_key',
  'label',
  'field_type',
  'localized',
  'validators',
  'default_value',
] as const;

/** The fields of these models, in form order, grouped by model. */
export async function fieldsOfModels(
  db: EnvQueryable,
  itemTypeIds: readonly string[],
): Promise<Map<string, ItemField[]>> {
  const byModel = new Map<string, ItemField[]>(itemTypeIds.map((id) => [id, []]));
  if (itemTypeIds.length === 0) return byModel;
  const rows = await db
    .selectFrom('fields')
    .select(ITEM_FIELD_COLUMNS)
    .where('item_type_id', 'in', [...itemTypeIds])
    .orderBy('position')
    .orderBy('seq')
    .execute();
  for (const row of rows) byModel.get(row.item_type_id)?.push(row as ItemField);
  return byModel;
}

export async function fieldsOfModel(db: EnvQueryable, itemTypeId: string): Promise<ItemField[]> {
  return (await fieldsOfModels(db, [itemTypeId])).get(itemTypeId) ?? [];
}
