import DataLoader from 'dataloader';
import { sql } from 'kysely';
import type { DeliveryContext } from './context.ts';
import { type LinkRead, linkedIds } from './link-reads.ts';
import { orderRules } from './order.ts';
import { type RecordsQuery, recordsWhere } from './records-query.ts';
import { type DeliveryRow, META_COLUMNS, versionColumns } from './rows.ts';

/**
 * Where links count (linkedIds' reads: a field of the record, or one inside its blocks,
 * per locale of a localized field), and the page and order asked for.
 */
export type InverseQuery = RecordsQuery &
  Readonly<{
    reads: readonly LinkRead[];
    orderBy: readonly string[];
    first: number;
    skip: number;
  }>;

/**
 * The records linking to each target, a page per target in one statement: a window
 * numbers each target's records in the order asked for, and the page is cut from it.
 */
async function referencingPages(
  context: DeliveryContext,
  query: InverseQuery,
  targets: readonly string[],
): Promise<Map<string, DeliveryRow[]>> {
  const { where } = await recordsWhere(context, query);
  const refs = linkedIds(context.scope.db, context.drafts, query.reads);
  const rules = orderRules(query.orderBy, query.fields, context.drafts, query.locale);
  context.budget.spendStatement();
  const rows = await context.scope.db
    .selectFrom((db) =>
      db
        .selectFrom('items')
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom(sql<{ target: string }>`jsonb_array_elements_text(${refs})`.as('ref'))
              .select(sql<string>`ref.value`.as('target'))
              .distinct()
              .where(sql`ref.value`, '=', sql`ANY(${[...targets]}::text[])`)
              .as('linked'),
          (join) => join.onTrue(),
        )
        .select(META_COLUMNS.map((column) => `items.${column}` as const))
        .select(versionColumns(context.drafts))
        .select('linked.target')
        .select((eb) =>
          eb.fn
            .agg<number>('row_number')
            .over((over) => {
              let ordered = over.partitionBy('linked.target');
              for (const rule of rules) ordered = ordered.orderBy(rule.expression, rule.direction);
              return ordered.orderBy('items.id');
            })
            .as('rank'),
        )
        .where(where as never)
        .as('page'),
    )
    .selectAll()
    .where('rank', '>', query.skip)
    .where('rank', '<=', query.skip + query.first)
    .orderBy('rank')
    .execute();
  context.tags?.collection(query.model.id);
  context.tags?.records(rows.map((row) => row.id));
  const byTarget = new Map<string, DeliveryRow[]>(targets.map((id) => [id, []]));
  for (const row of rows) byTarget.get(row.target)?.push(row as unknown as DeliveryRow);
  return byTarget;
}

/** How many records link to each target, in one statement. */
async function referencingCounts(
  context: DeliveryContext,
  query: InverseQuery,
  targets: readonly string[],
): Promise<Map<string, number>> {
  const { where } = await recordsWhere(context, query);
  const refs = linkedIds(context.scope.db, context.drafts, query.reads);
  context.budget.spendStatement();
  const rows = await context.scope.db
    .selectFrom('items')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom(sql<{ target: string }>`jsonb_array_elements_text(${refs})`.as('ref'))
          .select(sql<string>`ref.value`.as('target'))
          .distinct()
          .where(sql`ref.value`, '=', sql`ANY(${[...targets]}::text[])`)
          .as('linked'),
      (join) => join.onTrue(),
    )
    .select('linked.target')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where(where as never)
    .groupBy('linked.target')
    .execute();
  context.tags?.collection(query.model.id);
  const counts = new Map<string, number>(targets.map((id) => [id, 0]));
  for (const row of rows) counts.set(row.target, Number(row.count));
  return counts;
}

/**
 * Per request, one loader per (referencing model, arguments): every target asking the
 * same question in one tick is answered by one statement.
 */
export function inverseLoader<T extends 'page' | 'count'>(
  context: DeliveryContext,
  kind: T,
  key: string,
  query: InverseQuery,
): DataLoader<string, T extends 'page' ? DeliveryRow[] : number> {
  const name = `${kind}:${key}`;
  let loader = context.inverse.get(name);
  if (!loader) {
    loader = new DataLoader<string, unknown>(
      async (targets) => {
        const found =
          kind === 'page'
            ? await referencingPages(context, query, targets)
            : await referencingCounts(context, query, targets);
        return targets.map((id) => (found as Map<string, unknown>).get(id) ?? null);
      },
      { maxBatchSize: 5_000 },
    );
    context.inverse.set(name, loader);
  }
  return loader as DataLoader<string, T extends 'page' ? DeliveryRow[] : number>;
}
