import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { EnvQueryable } from '../../../db/environment-scope.ts';
import { BLOCK_VALIDATORS } from '../../schema/references.ts';
import { holdsBlocks } from '../blocks/block-values.ts';
import { FILTER_FIELD_COLUMNS, type FilterField } from '../model-fields.ts';
import { blockPresenceOperators } from './block-presence-filters.ts';
import { allOf, combinedConditions, namesIn } from './filter-combinators.ts';
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

/**
 * Deep filtering: `filter[fields]` takes the GraphQL filters' syntax (client's
 * ItemInstancesHrefSchema), where a modular content, single block or structured text field
 * with `deep_filtering_enabled` takes `any`:
 * `filter[fields][content][any][product][name][eq]=T-Shirt` finds the records where some
 * `product` block of `content` (in the locale, when localized) satisfies every condition
 * given for it; conditions on several block models must all hold, each by a block of its
 * model (DatoCMS, Content Delivery API › Deep Filtering). A block's conditions are its
 * fields' operators and `id`, the one meta field blocks have; a block field of a block takes
 * `any` in turn; `AND`/`OR` combine block models under `any` and conditions within a block
 * as they combine a record's (filter-combinators.ts). Current values name their blocks by id
 * (rows of `blocks`); published values hold them inline, so the same filter reads the one or
 * the other. Each `any` reads the block models its field accepts, in one statement.
 */

/** How a filter reads values: in which locale, which version, and (for `any`) from where. */
export type ValuesReading = { db: EnvQueryable; locale: string; published: boolean };

/** A block model a filter names, with the fields its conditions may name. */
type FilteredBlock = { model: { id: string; api_key: string }; fields: FilterField[] };

/** Operators of a deep-filtered field that read its blocks (block-presence-filters.ts). */
const BLOCK_OPERATORS = ['any', 'contains_any', 'exists'];

/** Whether a field's filter reaches into blocks. */
function reachesIntoBlocks(given: unknown): boolean {
  return isObject(given) && BLOCK_OPERATORS.some((name) => Object.hasOwn(given, name));
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
export async function fieldFilter(
  path: string,
  field: FilterField,
  given: unknown,
  values: Expression<unknown>,
  reading: ValuesReading,
  depth = 0,
): Promise<Condition[]> {
  const operand = valuesOperand(values, field, reading.locale);
  const operators = FIELD_OPERATORS[field.field_type];
  if (!reachesIntoBlocks(given) || !holdsBlocks(field))
    return fieldConditions(path, operators, given, operand);
  const { any, contains_any, ...others } = given as Record<string, unknown>;
  // A structured text's `exists` asks whether it has a value: its own operator stays.
  const blockExists = field.field_type !== 'structured_text';
  const exists = blockExists ? others.exists : undefined;
  if (blockExists) delete others.exists;
  const presence = Object.fromEntries(
    Object.entries({ contains_any, exists }).filter(([, arg]) => arg !== undefined),
  );
  return [
    ...(Object.keys(others).length > 0 ? fieldConditions(path, operators, others, operand) : []),
    ...(any === undefined
      ? []
      : await anyBlock(`${path}[any]`, field, any, operand.json, reading, depth)),
    ...(Object.keys(presence).length === 0
      ? []
      : await blockPresence(path, field, presence, operand.json, reading)),
  ];
}

/** `contains_any` / `exists` of a deep-filtered field: which blocks it holds. */
async function blockPresence(
  path: string,
  field: FilterField,
  given: Record<string, unknown>,
  value: RawBuilder<unknown>,
  reading: ValuesReading,
): Promise<Condition[]> {
  if (!field.deep_filtering_enabled)
    throw badFilter(
      `${path}: deep filtering is not enabled on field "${field.api_key}" (deep_filtering_enabled is false)`,
    );
  const holder = {
    value,
    refs: BLOCK_REFS[field.field_type] as string,
    accepted: await acceptedBlocks(reading.db, field, new Set()),
  };
  return fieldConditions(path, blockPresenceOperators(holder, reading), given, {
    json: value,
    text: sql`null`,
  });
}

/**
 * The block models a field accepts (blocks and inline blocks), in its validators' order, in
 * one statement: the fields only of those `named` (what the filter names at this level).
 */
async function acceptedBlocks(
  db: EnvQueryable,
  field: FilterField,
  named: ReadonlySet<string>,
): Promise<FilteredBlock[]> {
  const validators = (field.validators ?? {}) as Record<string, { item_types?: unknown }>;
  const ids = [
    ...new Set(
      BLOCK_VALIDATORS.flatMap((name) => {
        const list = validators[name]?.item_types;
        return Array.isArray(list) ? (list as string[]) : [];
      }),
    ),
  ];
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('item_types as model')
    .leftJoin('fields as field', (join) =>
      join
        .onRef('field.item_type_id', '=', 'model.id')
        .on(
          named.size > 0
            ? sql<SqlBool>`model.api_key in (${sql.join([...named])})`
            : sql<SqlBool>`false`,
        ),
    )
    .select(['model.id as model_id', 'model.api_key as model_api_key'])
    .select(FILTER_FIELD_COLUMNS.map((column) => `field.${column}` as const))
    .where('model.id', 'in', ids)
    .where('model.modular_block', '=', true)
    .orderBy('field.position')
    .orderBy('field.seq')
    .execute();
  const blocks = new Map<string, FilteredBlock>();
  for (const { model_id, model_api_key, ...inner } of rows) {
    let block = blocks.get(model_id);
    if (!block) {
      block = { model: { id: model_id, api_key: model_api_key }, fields: [] };
      blocks.set(model_id, block);
    }
    // A model without a named field joins no field: its row has only the model.
    if (inner.id !== null) block.fields.push(inner as FilterField);
  }
  return ids.flatMap((id) => {
    const block = blocks.get(id);
    return block ? [block] : [];
  });
}

/** `[any]`: for each block model named, some block of it satisfies its conditions. */
async function anyBlock(
  path: string,
  field: FilterField,
  given: unknown,
  value: RawBuilder<unknown>,
  reading: ValuesReading,
  depth: number,
): Promise<Condition[]> {
  if (!field.deep_filtering_enabled)
    throw badFilter(
      `${path}: deep filtering is not enabled on field "${field.api_key}" (deep_filtering_enabled is false)`,
    );
  const accepted = await acceptedBlocks(reading.db, field, namesIn(given));
  const names = accepted.map((block) => block.model.api_key);
  if (!isObject(given) || Object.keys(given).length === 0)
    throw badFilter(
      `${path} must name block models, e.g. ${path}[${names[0] ?? 'block'}][id][eq]=…`,
    );
  return combinedConditions(path, given, async (at, apiKey, conditions) => {
    const block = accepted.find((candidate) => candidate.model.api_key === apiKey);
    if (!block)
      throw badFilter(
        `${at} names "${apiKey}", which is no block model the field accepts (${
          names.length > 0 ? names.join(', ') : 'it accepts none'
        })`,
      );
    return [await someBlock(`${at}[${apiKey}]`, field, block, conditions, value, reading, depth)];
  });
}

/** Some block of this model, among those the value names, satisfies every condition. */
async function someBlock(
  path: string,
  field: FilterField,
  block: FilteredBlock,
  given: unknown,
  value: RawBuilder<unknown>,
  reading: ValuesReading,
  depth: number,
): Promise<Condition> {
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
  const conditions = await combinedConditions(path, given, async (container, name, operators) => {
    const at = `${container}[${name}]`;
    if (name === 'id') return fieldConditions(at, ID_OPERATORS, operators, id);
    const inner = block.fields.find((candidate) => candidate.api_key === name);
    if (!inner)
      throw badFilter(
        `${container} names "${name}", which is no field of block model "${block.model.api_key}" (id is a block's one meta field)`,
      );
    return fieldFilter(at, inner, operators, values, reading, depth + 1);
  });
  const refs = sql`jsonb_path_query(${value}, ${BLOCK_REFS[field.field_type]}::jsonpath, '{}', true)`;
  const all = allOf(conditions);
  if (reading.published)
    return sql<SqlBool>`exists (select 1 from ${refs} as ${sql.id(alias)}(node)
      where ${node} ->> 'item_type_id' = ${block.model.id} and ${all})`;
  const blocks = reading.db
    .selectFrom(`blocks as ${alias}` as 'blocks')
    .select(sql`1`.as('one'))
    .where(
      sql<SqlBool>`${sql.ref(`${alias}.id`)} in (select ref #>> '{}' from ${refs} as ref)
        and ${sql.ref(`${alias}.item_type_id`)} = ${block.model.id} and ${all}`,
    );
  return sql<SqlBool>`exists (${blocks})`;
}
