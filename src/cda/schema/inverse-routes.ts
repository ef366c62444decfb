import type { FilterField } from '../../domain/items/model-fields.ts';
import { BLOCK_VALIDATORS } from '../../domain/schema/references.ts';
import type { BlockHolder, BlockStep, LinkHolder } from '../resolvers/link-reads.ts';
import type { BlockModels } from './deep-filter-inputs.ts';
import { camelName } from './names.ts';

/**
 * Where a referencing model's records may link to a target: a link, links or structured
 * text field of the model itself (no steps), or one inside blocks the model's fields hold,
 * reached through the steps (`docPage_main__chapter_author`: field `main`, then `author` of `chapter` blocks).
 */
export type LinkRoute = Readonly<{
  /** The `<M>ModelFieldsReferencing<T>Model` value naming the route. */
  name: string;
  /** The referencing model's own field the route starts at (its localization counts). */
  field: FilterField;
  steps: readonly BlockStep[];
  /** How the field the route ends at holds its links. */
  holder: LinkHolder;
}>;

/**
 * Routes per (referencing model, target) at most: block models allowing each other can
 * make the number of distinct paths grow fast, and each route is an enum value and a part
 * of the inverse statement.
 */
export const MAX_ROUTES = 100;

/** Blocks nested deeper than this are not searched (DatoCMS caps nesting far below it in practice). */
export const MAX_ROUTE_DEPTH = 8;

/**
 * The validator naming the models a field type may link to. A structured text field links
 * records from its `itemLink` and `inlineItem` nodes (DatoCMS counts them as references:
 * CMA, "List models referencing another model").
 */
const LINK_VALIDATORS: Readonly<Record<string, string>> = {
  link: 'item_item_type',
  links: 'items_item_type',
  structured_text: 'structured_text_links',
};

function allowedModels(field: FilterField, validators: readonly string[]): string[] {
  return validators.flatMap((name) => {
    const ids = (field.validators[name] as { item_types?: unknown } | undefined)?.item_types;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  });
}

const linksTo = (field: FilterField, target: string) => {
  const validator = LINK_VALIDATORS[field.field_type];
  return validator !== undefined && allowedModels(field, [validator]).includes(target);
};

const isHolder = (type: string): type is BlockHolder =>
  type === 'rich_text' || type === 'single_block' || type === 'structured_text';

/**
 * Every route from `fields` (a record model's) to a link or links field that may point at
 * `target`, through blocks at any depth up to MAX_ROUTE_DEPTH, each block model at most
 * once per route; at most MAX_ROUTES, in field order.
 */
export function linkRoutes(
  modelApiKey: string,
  fields: readonly FilterField[],
  target: string,
  blocks: BlockModels,
): LinkRoute[] {
  const routes: LinkRoute[] = [];
  const walk = (
    top: FilterField,
    field: FilterField,
    name: string,
    steps: readonly BlockStep[],
    visited: ReadonlySet<string>,
  ) => {
    if (routes.length >= MAX_ROUTES) return;
    if (linksTo(field, target))
      routes.push({
        name,
        field: top,
        steps,
        holder: field.field_type === 'structured_text' ? 'dast' : 'ids',
      });
    if (!isHolder(field.field_type) || steps.length >= MAX_ROUTE_DEPTH) return;
    for (const blockId of new Set(allowedModels(field, BLOCK_VALIDATORS))) {
      const block = blocks.get(blockId);
      if (!block || visited.has(blockId)) continue;
      for (const inner of block.fields) {
        const step = { holder: field.field_type, blockModelId: blockId, fieldId: inner.id };
        const innerName = `${name}__${camelName(block.api_key)}_${camelName(inner.api_key)}`;
        walk(top, inner, innerName, [...steps, step], new Set([...visited, blockId]));
      }
    }
  };
  for (const field of fields)
    walk(field, field, `${camelName(modelApiKey)}_${camelName(field.api_key)}`, [], new Set());
  return routes;
}
