import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isAbstractType,
  isCompositeType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DEFAULT_FIRST } from './page-bounds.ts';

/** The largest complexity a query may have (DatoCMS's documented formula, our limit). */
export const MAX_COMPLEXITY = 10_000_000;
/** How deep a query's selections may nest. */
export const MAX_DEPTH = 30;

/** What a field of the delivery schema costs: kept in its `extensions.cost`. */
export type CostKind =
  | 'collection'
  | 'single'
  | 'singleton'
  | 'site'
  | 'meta'
  | 'link'
  | 'links'
  | 'allLocales'
  | 'file'
  | 'text';

const FILTER_OPERATOR_COST = 250;
const ORDER_COST = 250;
/** Each block model a deep filter names, in `any` or `containsAny` (DatoCMS's figure). */
const DEEP_BLOCK_COST = 1_000_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a filter costs: its fields' operators, AND/OR lists included. */
function filterCost(filter: unknown): number {
  if (Array.isArray(filter))
    return filter.reduce((sum: number, element) => sum + filterCost(element), 0);
  if (!isObject(filter)) return 0;
  let cost = 0;
  for (const [name, value] of Object.entries(filter)) {
    if (name === 'AND' || name === 'OR') cost += filterCost(value);
    else if (isObject(value)) cost += operatorsCost(value);
  }
  return cost;
}

/**
 * One field's operators: 250 each; a deep filter's `any` costs 1,000,000 per block model
 * it names plus that block's operators, `containsAny` 1,000,000 per block model; a
 * structured text's `value` and `blocks` are costed by what they hold.
 */
function operatorsCost(operators: Record<string, unknown>): number {
  let cost = 0;
  for (const [operator, argument] of Object.entries(operators)) {
    const named = isObject(argument) ? Object.values(argument) : [];
    if (operator === 'any')
      cost += named.reduce((sum: number, block) => sum + DEEP_BLOCK_COST + filterCost(block), 0);
    else if (operator === 'containsAny') cost += DEEP_BLOCK_COST * named.length;
    else if ((operator === 'value' || operator === 'blocks') && isObject(argument))
      cost += operatorsCost(argument);
    else cost += FILTER_OPERATOR_COST;
  }
  return cost;
}

export class QueryTooComplex extends Error {}

/**
 * DatoCMS's complexity of an operation, computed from the document and its variables
 * before anything runs: 1 per field, collections 100 + filters (250 per operator,
 * 1,000,000 per block model a deep filter names) + sorts + `first` × what
 * each record selects, single records 50, singletons 25, `_site` 10, counts 1,000, a link
 * 10 + its selection, a links list 5 × its selection, `_all<Field>Locales` the site's
 * locales × its selection; on a union, the dearest member.
 * Also refuses selections nested deeper than MAX_DEPTH. Fragments are costed once per
 * type, so a document cannot make the computation itself expensive.
 */
export function queryComplexity(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): number {
  const memo = new Map<string, number>();
  // The environment's locales, which build-schema.ts keeps in the schema's extensions.
  const locales = (schema.extensions.locales as readonly string[] | undefined)?.length ?? 1;

  const fieldCost = (node: FieldNode, parent: GraphQLCompositeType, depth: number): number => {
    if (depth > MAX_DEPTH)
      throw new QueryTooComplex(`Query is nested deeper than ${MAX_DEPTH} levels`);
    const definition = 'getFields' in parent ? parent.getFields()[node.name.value] : undefined;
    const named = definition ? getNamedType(definition.type) : undefined;
    const inner =
      node.selectionSet && named && isCompositeType(named)
        ? selectionCost(node.selectionSet, named, depth + 1)
        : 0;
    if (!definition) return 1 + inner;
    return costOf(definition, node, inner, variables, locales);
  };

  const selectionCost = (
    set: SelectionSetNode,
    type: GraphQLCompositeType,
    depth: number,
  ): number => {
    let common = 0;
    const perType = new Map<string, number>();
    const add = (onType: string | undefined, cost: number) => {
      if (onType === undefined || onType === type.name || !isAbstractType(type)) common += cost;
      else perType.set(onType, (perType.get(onType) ?? 0) + cost);
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        common += fieldCost(selection, type, depth);
        continue;
      }
      const fragment =
        selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      if (!fragment) continue;
      const onName = fragment.typeCondition?.name.value;
      const onType = onName ? schema.getType(onName) : type;
      if (!onType || !isCompositeType(onType)) continue;
      const key =
        selection.kind === Kind.FRAGMENT_SPREAD
          ? `${selection.name.value}@${onType.name}/${depth}`
          : null;
      let cost = key === null ? undefined : memo.get(key);
      if (cost === undefined) {
        cost = selectionCost(fragment.selectionSet, onType, depth);
        if (key !== null) memo.set(key, cost);
      }
      add(onName, cost);
    }
    return common + Math.max(0, ...perType.values());
  };

  const root = schema.getQueryType();
  if (!root) return 0;
  return selectionCost(operation.selectionSet, root, 1);
}

function costOf(
  definition: GraphQLField<unknown, unknown>,
  node: FieldNode,
  inner: number,
  variables: Record<string, unknown>,
  locales: number,
): number {
  const kind = definition.extensions?.cost as CostKind | undefined;
  if (kind === undefined) return 1 + inner;
  if (kind === 'link') return 10 + inner;
  if (kind === 'file') return 5 + inner;
  if (kind === 'links') return 5 * inner;
  if (kind === 'allLocales') return locales * inner;
  if (kind === 'singleton') return 25 + inner;
  if (kind === 'site') return 10 + inner;
  const args = getArgumentValues(definition, node, variables);
  // Rendering Markdown costs as much as a file; the plain text as any field.
  if (kind === 'text') return args.markdown === true ? 5 : 1;
  const filters = filterCost(args.filter);
  // Only an order the query gives costs: the default one is free (DatoCMS's worked example).
  const ordered = node.arguments?.some((argument) => argument.name.value === 'orderBy');
  const sorts = ordered && Array.isArray(args.orderBy) ? ORDER_COST * args.orderBy.length : 0;
  if (kind === 'meta') return 1_000 + filters + inner;
  if (kind === 'single') return 50 + filters + inner;
  const first = typeof args.first === 'number' ? Math.max(0, args.first) : DEFAULT_FIRST;
  return 100 + filters + sorts + first * inner;
}
