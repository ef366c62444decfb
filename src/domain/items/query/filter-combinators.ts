import { type SqlBool, sql } from 'kysely';
import { badFilter, type Condition, isObject } from './filter-operators.ts';

/**
 * `AND` and `OR` of the GraphQL records filters, which `filter[fields]` takes (client's
 * ItemInstancesHrefSchema: "same syntax as GraphQL API records filters"). Next to the names
 * of a filter object (fields, meta fields, block models, block fields), `AND` and `OR` take a
 * list of filter objects of the same kind: every one, or at least one, must hold; the names
 * beside them hold as well (DatoCMS, Content Delivery API › Filtering records). Lists nest:
 * an element may hold `AND`/`OR` in turn.
 *
 * A list comes as `…[OR][0][title][eq]=a&…[OR][1][rating][gt]=3`. The query parser puts
 * every `…[OR][][…]` parameter into one element, so separate elements need their index (the
 * official client writes an array as `[]`: give it an object keyed by index instead).
 */

const COMBINATORS = { AND: sql` and `, OR: sql` or ` } as const;
type Combinator = keyof typeof COMBINATORS;

const isCombinator = (name: string): name is Combinator => Object.hasOwn(COMBINATORS, name);

/** The conditions one name of a filter object stands for (`path` is the object's parameter). */
export type NamedConditions = (path: string, name: string, given: unknown) => Promise<Condition[]>;

/** Every condition must hold (`true` for none). */
export function allOf(conditions: readonly Condition[]): Condition {
  return conditions.length === 0
    ? sql<SqlBool>`true`
    : sql<SqlBool>`(${sql.join(conditions, COMBINATORS.AND)})`;
}

/** A list: an array, or (an index past the parser's array limit) an object keyed by index. */
function elementsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((key) => /^\d+$/.test(key))) return undefined;
  return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key]);
}

/**
 * The conditions of a filter object whose names `named` reads, with `AND`/`OR` lists of
 * objects of the same kind. The caller has checked that `given` is an object.
 */
export async function combinedConditions(
  path: string,
  given: Record<string, unknown>,
  named: NamedConditions,
): Promise<Condition[]> {
  const conditions: Condition[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (!isCombinator(name)) {
      conditions.push(...(await named(path, name, value)));
      continue;
    }
    const at = `${path}[${name}]`;
    const elements = elementsOf(value);
    if (!elements)
      throw badFilter(`${at} must be a list of filters, e.g. ${at}[0][…]=…&${at}[1][…]=…`);
    const parts: Condition[] = [];
    for (const [index, element] of elements.entries()) {
      const each = `${at}[${index}]`;
      if (!isObject(element) || Object.keys(element).length === 0)
        throw badFilter(`${each} must be a filter naming conditions, e.g. ${each}[…][eq]=…`);
      parts.push(allOf(await combinedConditions(each, element, named)));
    }
    conditions.push(sql<SqlBool>`(${sql.join(parts, COMBINATORS[name])})`);
  }
  return conditions;
}

/** The names a filter object uses, inside its `AND`/`OR` lists too (what to read for it). */
export function namesIn(given: unknown): Set<string> {
  const names = new Set<string>();
  if (!isObject(given)) return names;
  for (const [name, value] of Object.entries(given)) {
    if (!isCombinator(name)) names.add(name);
    else
      for (const element of elementsOf(value) ?? [])
        for (const inner of namesIn(element)) names.add(inner);
  }
  return names;
}
