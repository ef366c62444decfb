import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { EnvQueryable } from '../../../db/environment-scope.ts';
import {
  badFilter,
  bool,
  type Condition,
  isObject,
  not,
  type Operators,
} from './filter-operators.ts';

/**
 * `containsAny` and `exists` of a deep-filtered field (DatoCMS, Content Delivery API ›
 * Deep Filtering): which blocks a field holds, whatever their values.
 * `contains_any: {<block model>: true, …}`: the field holds a block of one of the models set
 * true, and none of those set false. `exists: true`: it holds a block; `false`: none.
 */

/** How the values are read: current values name blocks by id, published ones hold them. */
type Reading = { db: EnvQueryable; published: boolean };

/** A block model a field accepts. */
export type AcceptedBlock = { model: { id: string; api_key: string } };

/** Where a block-holding value names its blocks, and which blocks it accepts. */
export type BlockHolder = {
  /** The value (jsonb) of the field. */
  value: RawBuilder<unknown>;
  /** jsonpath to its block references (ids in current values, nodes when published). */
  refs: string;
  accepted: readonly AcceptedBlock[];
};

/** The value holds a block of one of these models (any model when `modelIds` is null). */
function holdsBlockOf(
  holder: BlockHolder,
  modelIds: readonly string[] | null,
  reading: Reading,
): Condition {
  const refs = sql`jsonb_path_query(${holder.value}, ${holder.refs}::jsonpath, '{}', true)`;
  if (modelIds === null) return sql<SqlBool>`exists (select 1 from ${refs} as ref)`;
  if (modelIds.length === 0) return sql<SqlBool>`false`;
  if (reading.published)
    return sql<SqlBool>`exists (select 1 from ${refs} as ref(node)
      where ref.node ->> 'item_type_id' in (${sql.join(modelIds)}))`;
  const blocks = reading.db
    .selectFrom('blocks as held')
    .select(sql`1`.as('one'))
    .where(
      sql<SqlBool>`held.id in (select ref #>> '{}' from ${refs} as ref)
        and held.item_type_id in (${sql.join(modelIds)})`,
    );
  return sql<SqlBool>`exists (${blocks})`;
}

function containsAny(holder: BlockHolder, reading: Reading): Operators[string] {
  return (_v, arg, what) => {
    if (!isObject(arg) || Object.keys(arg).length === 0)
      throw badFilter(`${what} must name block models, e.g. ${what}[block]=true`);
    const wanted: string[] = [];
    const unwanted: string[] = [];
    for (const [apiKey, flag] of Object.entries(arg)) {
      const block = holder.accepted.find((candidate) => candidate.model.api_key === apiKey);
      if (!block)
        throw badFilter(`${what} names "${apiKey}", which is no block model the field accepts`);
      (bool(flag, `${what}[${apiKey}]`) ? wanted : unwanted).push(block.model.id);
    }
    const conditions: Condition[] = [];
    if (wanted.length > 0) conditions.push(holdsBlockOf(holder, wanted, reading));
    if (unwanted.length > 0) conditions.push(not(holdsBlockOf(holder, unwanted, reading)));
    return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
  };
}

/** The operators a deep-filtered field takes next to `any`. */
export function blockPresenceOperators(holder: BlockHolder, reading: Reading): Operators {
  return {
    contains_any: containsAny(holder, reading),
    exists: (_v, arg, what) => {
      const some = holdsBlockOf(holder, null, reading);
      return bool(arg, what) ? some : not(some);
    },
  };
}
