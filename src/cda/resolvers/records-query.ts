import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { EnvironmentDatabase, ItemTypeRow } from '../../db/schema.ts';
import type { FilterField } from '../../domain/items/model-fields.ts';
import { filterConditions } from '../../domain/items/query/list-filters.ts';
import { boundedPatternRun } from '../../domain/items/query/pattern-statements.ts';
import { ensureValueIndexes } from '../../domain/items/query/value-indexes.ts';
import type { DeliveryContext } from './context.ts';
import { toEngineFilter } from './filter-translation.ts';
import { orderRules } from './order.ts';
import { type DeliveryRow, META_COLUMNS, versionColumns } from './rows.ts';

/** The records of one model a root field asks for. */
export type RecordsQuery = Readonly<{
  model: ItemTypeRow;
  fields: readonly FilterField[];
  filter: Record<string, unknown> | null | undefined;
  locale: string;
}>;

type Where = (eb: ExpressionBuilder<EnvironmentDatabase, 'items'>) => Expression<SqlBool>;

/**
 * The condition selecting the query's records: its model, the version served, the role's
 * reach and the filter, as the CMA's records list reads filters (list-filters.ts); and
 * whether it runs `matches` patterns.
 */
export async function recordsWhere(
  context: DeliveryContext,
  query: RecordsQuery,
): Promise<{ where: Where; runsPatterns: boolean }> {
  const { conditions: filters, runsPatterns } = query.filter
    ? await filterConditions(context.scope, {
        fields: toEngineFilter(query.filter, query.fields, context.blockModels),
        query: undefined,
        onlyValid: undefined,
        models: [query.model],
        locale: query.locale,
        column: context.drafts ? 'item_values' : 'published_values',
      })
    : { conditions: [], runsPatterns: false };
  const where: Where = (eb) => {
    const conditions: Expression<SqlBool>[] = [eb('item_type_id', '=', query.model.id)];
    if (!context.drafts) conditions.push(eb('published_values', 'is not', null));
    if (context.strict)
      conditions.push(eb(context.drafts ? 'current_valid' : 'published_valid', '=', true));
    if (context.readable) conditions.push(context.readable(eb));
    conditions.push(...filters);
    return eb.and(conditions);
  };
  return { where, runsPatterns };
}

/** Runs `work` on the scope's handle, under the pattern statement timeout when it runs patterns. */
function run<T>(
  context: DeliveryContext,
  runsPatterns: boolean,
  work: (db: EnvQueryable) => Promise<T>,
): Promise<T> {
  return runsPatterns ? boundedPatternRun(context.scope.db, work) : work(context.scope.db);
}

/** One page of records, in one statement (filter, order and page in SQL). */
export async function findRecords(
  context: DeliveryContext,
  query: RecordsQuery,
  page: Readonly<{ orderBy: readonly string[]; first: number; skip: number }>,
): Promise<DeliveryRow[]> {
  const { where, runsPatterns } = await recordsWhere(context, query);
  const rules = orderRules(page.orderBy, query.fields, context.drafts, query.locale);
  // Built on first use, then known from the schema cache (no statement per query).
  await ensureValueIndexes(
    context.scope,
    rules.flatMap((rule) => (rule.index ? [{ ...rule.index, modelId: query.model.id }] : [])),
  );
  context.budget.spendStatement();
  const rows = await run(context, runsPatterns, (db) => {
    let statement = db
      .selectFrom('items')
      .select(META_COLUMNS)
      .select(versionColumns(context.drafts))
      .where(where);
    for (const rule of rules) statement = statement.orderBy(rule.expression, rule.direction);
    // A stable order whatever the sort keys: equal keys would otherwise page unpredictably.
    return statement.orderBy('id').limit(page.first).offset(page.skip).execute();
  });
  context.tags?.collection(query.model.id);
  context.tags?.records(rows.map((row) => row.id));
  return rows as DeliveryRow[];
}

/** How many records the query matches, in one statement. */
export async function countRecords(context: DeliveryContext, query: RecordsQuery): Promise<number> {
  const { where, runsPatterns } = await recordsWhere(context, query);
  context.budget.spendStatement();
  const row = await run(context, runsPatterns, (db) =>
    db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where(where)
      .executeTakeFirstOrThrow(),
  );
  context.tags?.collection(query.model.id);
  return Number(row.count);
}
