import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { siteLocales } from '../../domain/fields/check-context.ts';
import { FILTER_FIELD_COLUMNS, type FilterField } from '../../domain/items/model-fields.ts';

/** What a delivery schema is generated from: the environment's models, fields and locales. */
export type SchemaSnapshot = Readonly<{
  /** Record models, in creation order. */
  models: readonly ItemTypeRow[];
  /** Block models: types of block fields' values, never roots. */
  blockModels: readonly ItemTypeRow[];
  fieldsByModel: ReadonlyMap<string, readonly FilterField[]>;
  locales: readonly string[];
}>;

/** Three statements, whatever the number of models. */
export async function loadSnapshot(db: EnvQueryable): Promise<SchemaSnapshot> {
  const [allModels, fields, locales] = await Promise.all([
    db.selectFrom('item_types').selectAll().orderBy('seq').execute(),
    db
      .selectFrom('fields')
      .select(FILTER_FIELD_COLUMNS)
      .orderBy('position')
      .orderBy('seq')
      .execute(),
    siteLocales(db),
  ]);
  const fieldsByModel = new Map<string, FilterField[]>(allModels.map((model) => [model.id, []]));
  for (const field of fields) fieldsByModel.get(field.item_type_id)?.push(field as FilterField);
  return {
    models: allModels.filter((model) => !model.modular_block),
    blockModels: allModels.filter((model) => model.modular_block),
    fieldsByModel,
    locales,
  };
}
