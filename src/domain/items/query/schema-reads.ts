import type { Scope } from '../../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../../db/schema.ts';
import { cachedSchemaRead } from '../../caches/caches.ts';
import { siteLocales } from '../../schema/locales.ts';
import { type FilterField, filterFieldsOfModel, type ItemField } from '../model-fields.ts';
import { contextOf } from '../record-context.ts';

/**
 * What a records query reads of the schema (models, fields, locales), from the schema
 * cache at the version the request read with its token: no statement once kept, and a
 * request that starts after a schema change commits reads afresh (caches/README.md).
 */

/** The environment's locales, the main one first. */
export function localesOf(scope: Scope): Promise<readonly string[]> {
  return cachedSchemaRead(scope, 'site-locales', () => siteLocales(scope.db));
}

/** The models these ids or api_keys name (an id wins over an api_key), each once; and the keys naming none. */
export async function modelsNamed(
  scope: Scope,
  keys: readonly string[],
): Promise<{ models: ItemTypeRow[]; unknown: string[] }> {
  const found = await Promise.all(keys.map((key) => contextOf(scope, key)));
  const byId = new Map<string, ItemTypeRow>();
  const unknown: string[] = [];
  found.forEach((context, index) => {
    if (context) byId.set(context.model.id, context.model);
    else unknown.push(keys[index] ?? '');
  });
  return { models: [...byId.values()], unknown };
}

/** The fields of these models, in form order, grouped by model. */
export async function fieldsOfModelsKept(
  scope: Scope,
  modelIds: readonly string[],
): Promise<Map<string, readonly ItemField[]>> {
  const contexts = await Promise.all(modelIds.map((id) => contextOf(scope, id)));
  return new Map(modelIds.map((id, index) => [id, contexts[index]?.fields ?? []]));
}

/** The model's fields as `filter[fields]` reads them. */
export function filterFieldsKept(scope: Scope, modelId: string): Promise<readonly FilterField[]> {
  return cachedSchemaRead(scope, `filter-fields:${modelId}`, () =>
    filterFieldsOfModel(scope.db, modelId),
  );
}
