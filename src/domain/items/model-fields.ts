import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { RecordField } from '../schema/field-types/record-values.ts';

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

/** A field as `filter[fields]` reads it: deep filters ask whether deep filtering is on. */
export type FilterField = ItemField & { deep_filtering_enabled: boolean };

/** The `fields` columns a FilterField is read from. */
export const FILTER_FIELD_COLUMNS = [...ITEM_FIELD_COLUMNS, 'deep_filtering_enabled'] as const;

/** Fields read with these columns, in form order, grouped by model. */
async function fieldsGrouped<F extends ItemField>(
  db: EnvQueryable,
  itemTypeIds: readonly string[],
  columns: readonly (typeof FILTER_FIELD_COLUMNS)[number][],
): Promise<Map<string, F[]>> {
  const byModel = new Map<string, F[]>(itemTypeIds.map((id) => [id, []]));
  if (itemTypeIds.length === 0) return byModel;
  const rows = await db
    .selectFrom('fields')
    .select(columns)
    .where('item_type_id', 'in', [...itemTypeIds])
    .orderBy('position')
    .orderBy('seq')
    .execute();
  // Each row holds the columns asked for, which F names.
  for (const row of rows) byModel.get(row.item_type_id)?.push(row as unknown as F);
  return byModel;
}

/** The fields of these models, in form order, grouped by model. */
export function fieldsOfModels(
  db: EnvQueryable,
  itemTypeIds: readonly string[],
): Promise<Map<string, ItemField[]>> {
  return fieldsGrouped<ItemField>(db, itemTypeIds, ITEM_FIELD_COLUMNS);
}

export async function fieldsOfModel(db: EnvQueryable, itemTypeId: string): Promise<ItemField[]> {
  return (await fieldsOfModels(db, [itemTypeId])).get(itemTypeId) ?? [];
}

/** The fields of a model as `filter[fields]` reads them. */
export async function filterFieldsOfModel(
  db: EnvQueryable,
  itemTypeId: string,
): Promise<FilterField[]> {
  const byModel = await fieldsGrouped<FilterField>(db, [itemTypeId], FILTER_FIELD_COLUMNS);
  return byModel.get(itemTypeId) ?? [];
}
