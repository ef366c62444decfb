import type { FilterField } from '../../domain/items/model-fields.ts';
import {
  acceptedBlockModels,
  type BlockModel,
  type BlockModels,
} from '../schema/deep-filter-inputs.ts';
import { camelName } from '../schema/names.ts';

/**
 * A GraphQL `filter` argument in the form the records query engine of the CMA reads
 * (`filter[fields]` of `GET /items`, the same filters in snake_case): meta fields by their
 * CMA names, fields by api_key, field operators in snake_case. Meta operators keep the
 * GraphQL names the engine reads for them (ItemIdFilter, StatusFilter).
 */

const META_NAMES: Readonly<Record<string, string>> = {
  id: 'id',
  _status: '_status',
  _createdAt: '_created_at',
  _updatedAt: '_updated_at',
  _publishedAt: '_published_at',
  _firstPublishedAt: '_first_published_at',
  _publicationScheduledAt: '_publication_scheduled_at',
  _unpublishingScheduledAt: '_unpublishing_scheduled_at',
  _isValid: '_is_valid',
  parent: 'parent_id',
  position: 'position',
};

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Field operators: `notIn` → `not_in`, `matches: {caseSensitive}` → `{case_sensitive}`. */
function fieldOperators(given: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(given)
      // A variable left unset reaches the resolver as undefined: no operator.
      .filter(([, value]) => value !== undefined)
      .map(([operator, value]) => [
        snake(operator),
        isObject(value)
          ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [snake(key), inner]))
          : value,
      ]),
  );
}

/** Fields whose filter is a deep filter (deep-filter-inputs.ts). */
const isDeepFiltered = (field: FilterField) =>
  field.deep_filtering_enabled &&
  ['rich_text', 'single_block', 'structured_text'].includes(field.field_type);

/**
 * A deep filter (`{ any: { <blockCamel>: <block conditions> }, containsAny: { <blockCamel>:
 * Boolean }, exists }`) with block models and their fields by api_key, as the engine's deep
 * filters read it (`contains_any`).
 */
function deepFilter(
  given: Record<string, unknown>,
  field: FilterField,
  blocks: BlockModels,
): Record<string, unknown> {
  const accepted = new Map(
    acceptedBlockModels(field, blocks).map((block) => [camelName(block.api_key), block]),
  );
  const byApiKey = <T>(named: unknown, value: (block: BlockModel, given: unknown) => T) =>
    Object.fromEntries(
      Object.entries(isObject(named) ? named : {}).flatMap(([name, inner]) => {
        const block = accepted.get(name);
        return block && inner !== undefined && inner !== null
          ? [[block.api_key, value(block, inner)]]
          : [];
      }),
    );
  const translated: Record<string, unknown> = {};
  if (given.any !== undefined && given.any !== null)
    translated.any = byApiKey(given.any, (block, conditions) =>
      toEngineFilter(isObject(conditions) ? conditions : {}, block.fields, blocks),
    );
  if (given.containsAny !== undefined && given.containsAny !== null)
    translated.contains_any = byApiKey(given.containsAny, (_block, flag) => flag);
  if (given.exists !== undefined && given.exists !== null) translated.exists = given.exists;
  return translated;
}

/**
 * A structured text's deep filter (`{ value: <its own operators>, blocks: { any, containsAny,
 * exists } }`) as the engine reads it: the text operators and `any` / `contains_any` side by
 * side. The engine's `exists` on structured text asks for a value, so `blocks.exists` is
 * read as holding a block of any accepted model (`contains_any` of them all, true or
 * false), ANDed with a `containsAny` given too.
 */
function structuredTextDeepFilter(
  given: Record<string, unknown>,
  field: FilterField,
  blocks: BlockModels,
): Record<string, unknown>[] {
  const text = isObject(given.value) ? fieldOperators(given.value) : {};
  const held = isObject(given.blocks) ? given.blocks : {};
  const { exists, ...others } = held;
  const parts = [{ ...text, ...deepFilter(others, field, blocks) }];
  if (exists !== undefined && exists !== null) {
    const all = acceptedBlockModels(field, blocks).map((block) => [block.api_key, exists]);
    parts.push({ contains_any: Object.fromEntries(all) });
  }
  return parts.filter((part) => Object.keys(part).length > 0);
}

export function toEngineFilter(
  filter: Record<string, unknown>,
  fields: readonly FilterField[],
  blocks: BlockModels,
): Record<string, unknown> {
  const byCamel = new Map(fields.map((field) => [camelName(field.api_key), field]));
  const translated: Record<string, unknown> = {};
  const extra: Record<string, unknown>[] = [];
  for (const [name, given] of Object.entries(filter)) {
    if (given === undefined || given === null) continue;
    if (name === 'AND' || name === 'OR') {
      translated[name] = (given as unknown[])
        .filter(isObject)
        .map((element) => toEngineFilter(element, fields, blocks));
      continue;
    }
    if (name === '_locales') {
      translated._locales = fieldOperators(given as Record<string, unknown>);
      continue;
    }
    const meta = META_NAMES[name];
    if (meta !== undefined) {
      translated[meta] = given;
      continue;
    }
    const field = byCamel.get(name);
    // The schema only lets through names it generated: a missing one is a schema bug.
    if (!field) throw new Error(`filter names "${name}", which the schema does not map`);
    if (isDeepFiltered(field) && field.field_type === 'structured_text') {
      const [first, ...more] = structuredTextDeepFilter(
        given as Record<string, unknown>,
        field,
        blocks,
      );
      if (first) translated[field.api_key] = first;
      // A second condition on the same field joins the others through AND.
      for (const part of more) extra.push({ [field.api_key]: part });
      continue;
    }
    translated[field.api_key] = isDeepFiltered(field)
      ? deepFilter(given as Record<string, unknown>, field, blocks)
      : fieldOperators(given as Record<string, unknown>);
  }
  if (extra.length > 0) translated.AND = [...((translated.AND as unknown[]) ?? []), ...extra];
  return translated;
}
