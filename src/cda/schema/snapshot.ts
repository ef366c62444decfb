import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { FILTER_FIELD_COLUMNS, type FilterField } from '../../domain/items/model-fields.ts';

/** What a delivery schema is generated from: the environment's models, fields and locales. */
export type SchemaSnapshot = Readonly<{
  /** Record models, in creation order. */
  models: readonly ItemTypeRow[];
  /** Block models: types of block fields' values, never roots. */
  blockModels: readonly ItemTypeRow[];
  fieldsByModel: ReadonlyMap<string, readonly FilterField[]>;
  locales: readonly string[];
  /** The site settings `_site` and `_seoMetaTags` read. */
  site: Readonly<{
    noIndex: boolean;
    favicon: string | null;
    globalSeo: Readonly<Record<string, unknown>> | null;
  }>;
}>;

/** Three statements, whatever the number of models. */
export async function loadSnapshot(db: EnvQueryable): Promise<SchemaSnapshot> {
  const [allModels, fields, site] = await Promise.all([
    db.selectFrom('item_types').selectAll().orderBy('seq').execute(),
    db
      .selectFrom('fields')
      .select(FILTER_FIELD_COLUMNS)
      .orderBy('position')
      .orderBy('seq')
      .execute(),
    db
      .selectFrom('site_settings')
      .select(['locales', 'no_index', 'favicon', 'global_seo'])
      .executeTakeFirstOrThrow(),
  ]);
  const fieldsByModel = new Map<string, FilterField[]>(allModels.map((model) => [model.id, []]));
  for (const field of fields) fieldsByModel.get(field.item_type_id)?.push(field as FilterField);
  return {
    models: allModels.filter((model) => !model.modular_block),
    blockModels: allModels.filter((model) => model.modular_block),
    fieldsByModel,
    locales: site.locales,
    site: { noIndex: site.no_index, favicon: site.favicon, globalSeo: site.global_seo },
  };
}
