import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import { holdsBlocks } from '../../presenters/item-blocks.ts';
import { BLOCK_VALIDATORS } from '../item-types/references.ts';
import { type BlockSchema, loadBlockSchema } from './block-schema.ts';
import {
  badFilter,
  type Condition,
  FIELD_OPERATORS,
  fieldConditions,
  ID_OPERATORS,
  isObject,
  type Operand,
  valuesOperand,
} from './filter-operators.ts';
import type { ItemField } from './model-fields.ts';

/**
 * Deep filtering: `filter[fields]` takes the GraphQL filters' syntax (client's
 * ItemInstancesHrefSchema), where a modular content, single block or structured text field
 * with `deep_filtering_enabled` takes `any`:
 * `filter[fields][content][any][product][name][eq]=T-Shirt` finds the records where some
 * `product` block of `content` (in the locale, when localized) satisfies every condition
 * given for it; conditions on several block models must all hold, each by a block of its
 * model (DatoCMS, Content Delivery API › Deep Filtering). A block's conditions are its
 * fields' operators and `id`, the one meta field blocks have; a block field of a block takes
 * `any` in turn. Current values name their blocks by id (rows of `blocks`); published values
 * hold them inline, so the same filter reads the one or the other.
 */

/** What deep filters read besides the values: block models and where deep filtering is on. */
export type DeepFilters = {
  db: EnvQueryable;
  schema: BlockSchema;
  /** Ids of the fields with `deep_filtering_enabled`. */
  enabled: ReadonlySet<string>;
};

/** How a filter reads values: in which locale, which version, and (with `any`) blocks. */
export type ValuesReading = { locale: string; published: boolean; deep?: DeepFilters };

export async function loadDeepFilters(db: EnvQueryable): Promise<DeepFilters> {
  const schema = await loadBlockSchema(db);
  const rows = await db
    .selectFrom('fields')
    .select('id')
    .where('deep_filtering_enabled', '=', true)
    .execute();
  return { db, schema, enabled: new Set(rows.map((row) => row.id)) };
}

/** Whether a field's filter reaches into blocks, so that DeepFilters must be loaded. */
export function reachesIntoBlocks(given: unknown): boolean {
  return isObject(given) && Object.hasOwn(given, 'any');
}

/** Where a value of each block-holding type names its blocks (by id, or inline when published). */
const BLOCK_REFS: Readonly<Record<string, string>> = {
  rich_text: 'strict $[*]',
  single_block: 'strict $',
  structured_text: 'strict $.document.** ? (@.type == "block" || @.type == "inlineBlock").item',
};

/**
 * The conditions of one filtered field of a record or a block, read from `values` (jsonb
 * keyed by field id): its type's operators, and `any` on a field holding blocks.
 */
export function fieldFilter(
  path: string,
  field: ItemField,
  given: unknown,
  values: Expression<unknown>,
  reading: ValuesReading,
  depth = 0,
): Condition[] {
  const operand = valuesOperand(values, field.localized ? [field.id, reading.locale] : [field.id]);
  const operators = FIELD_OPERATORS[field.field_type];
  if (!reachesIntoBlocks(given) || !holdsBlocks(field))
    return fieldConditions(path, operators, given, operand);
  const { any, ...others } = given as Record<string, unknown>;
  return [
    ...(Object.keys(others).length > 0 ? fieldConditions(path, operators, others, operand) : []),
    ...anyBlock(`${path}[any]`, field, any, operand.json, reading, depth),
  ];
}

/** The block models a field accepts (blocks and inline blocks), as the schema has them. */
function acceptedBlocks(field: ItemField, schema: BlockSchema) {
  const validators = (field.validators ?? {}) as Record<string, { item_types?: unknown }>;
  const ids = BLOCK_VALIDATORS.flatMap((name) => {
    const list = validators[name]?.item_types;
    return Array.isArray(list) ? (list as string[]) : [];
  });
  return [...new Set(ids)].flatMap((id) => {
    const block = schema.get(id);
    return block ? [block] : [];
  });
}

/** `[any]`: for each block model named, some block of it satisfies its conditions. */
function anyBlock(
  path: string,
  field: ItemField,
  given: unknown,
  value: RawBuilder<unknown>,
  reading: ValuesReading,
  depth: number,
): Condition[] {
  const deep = reading.deep;
  if (!deep) throw new Error('deep filters were not loaded for a filter naming [any]');
  if (!deep.enabled.has(field.id))
    throw badFilter(
      `${path}: deep filtering is not enabled on field "${field.api_key}" (deep_filtering_enabled is false)`,
    );
  const accepted = acceptedBlocks(field, deep.schema);
  const names = accepted.map((block) => block.model.api_key);
  if (!isObject(given) || Object.keys(given).length === 0)
    throw badFilter(
      `${path} must name block models, e.g. ${path}[${names[0] ?? 'block'}][id][eq]=…`,
    );
  return Object.entries(given).map(([apiKey, conditions]) => {
    const block = accepted.find((candidate) => candidate.model.api_key === apiKey);
    if (!block)
      throw badFilter(
        `${path} names "${apiKey}", which is no block model the field accepts (${
          names.length > 0 ? names.join(', ') : 'it accepts none'
        })`,
      );
    return someBlock(`${path}[${apiKey}]`, field, block, conditions, value, reading, depth);
  });
}

/** Some block of this model, among those the value names, satisfies every condition. */
function someBlock(
  path: string,
  field: ItemField,
  block: { model: { id: string; api_key: string }; fields: ItemField[] },
  given: unknown,
  value: RawBuilder<unknown>,
  reading: ValuesReading,
  depth: number,
): Condition {
  if (!isObject(given) || Object.keys(given).length === 0)
    throw badFilter(`${path} must name fields of the block, e.g. ${path}[id][eq]=…`);
  // One alias per level: a block's own blocks are matched in a subquery of its subquery.
  const alias = `block_${depth}`;
  const node = sql.ref(`${alias}.node`);
  const values = reading.published ? sql`(${node} -> 'values')` : sql.ref(`${alias}.item_values`);
  const id: Operand = {
    json: sql`null`,
    text: reading.published ? sql`(${node} ->> 'id')` : sql.ref(`${alias}.id`),
  };
  const conditions = Object.entries(given).flatMap(([name, operators]) => {
    const at = `${path}[${name}]`;
    if (name === 'id') return fieldConditions(at, ID_OPERATORS, operators, id);
    const inner = block.fields.find((candidate) => candidate.api_key === name);
    if (!inner)
      throw badFilter(
        `${path} names "${name}", which is no field of block model "${block.model.api_key}" (id is a block's one meta field)`,
      );
    return fieldFilter(at, inner, operators, values, reading, depth + 1);
  });
  const refs = sql`jsonb_path_query(${value}, ${BLOCK_REFS[field.field_type]}::jsonpath, '{}', true)`;
  const all = sql.join(conditions, sql` and `);
  if (reading.published)
    return sql<SqlBool>`exists (select 1 from ${refs} as ${sql.id(alias)}(node)
      where ${node} ->> 'item_type_id' = ${block.model.id} and ${all})`;
  const deep = reading.deep as DeepFilters;
  const blocks = deep.db
    .selectFrom(`blocks as ${alias}` as 'blocks')
    .select(sql`1`.as('one'))
    .where(
      sql<SqlBool>`${sql.ref(`${alias}.id`)} in (select ref #>> '{}' from ${refs} as ref)
        and ${sql.ref(`${alias}.item_type_id`)} = ${block.model.id} and ${all}`,
    );
  return sql<SqlBool>`exists (${blocks})`;
}
