import DataLoader from 'dataloader';
import type { Scope } from '../../db/environment-scope.ts';
import { anyText } from '../../db/query/any-text.ts';
import { selectRowsAsJson } from '../../db/query/json-rows.ts';
import { ITEM_TIMESTAMP_COLUMNS } from '../../db/schema.ts';
import type { CacheTagCollector } from '../cache-tags/cache-tags.ts';
import type { ExecutionBudget } from '../limits/execution-budget.ts';
import type { DeliveryRow } from './rows.ts';
import { type Visibility, visibleRows } from './visible-rows.ts';

/**
 * Records by id for one request: every link resolved in one tick is loaded by one
 * statement, so a list of 500 records with links costs one statement per link level.
 * A record not published (without drafts), invalid (strict mode) or not readable by the
 * role is null.
 */
export function recordLoader(
  scope: Scope,
  visibility: Visibility,
  budget: ExecutionBudget,
  tags: CacheTagCollector | null,
): DataLoader<string, DeliveryRow | null> {
  return new DataLoader<string, DeliveryRow | null>(
    async (ids) => {
      budget.spendStatement();
      const rows = await selectRowsAsJson(
        scope.db,
        visibleRows(scope, visibility).where(anyText('id', ids)),
        { dates: ITEM_TIMESTAMP_COLUMNS },
      );
      tags?.records(rows.map((row) => row.id));
      const byId = new Map(rows.map((row) => [row.id, row as DeliveryRow]));
      return ids.map((id) => byId.get(id) ?? null);
    },
    // A page holds at most 500 records with a few links each: one statement per level.
    { maxBatchSize: 5_000 },
  );
}

/**
 * The children of tree records, by parent id, in position order: the children of every
 * record of one level are loaded by one statement. Children the request may not see drop
 * out.
 */
export function childrenLoader(
  scope: Scope,
  visibility: Visibility,
  budget: ExecutionBudget,
  tags: CacheTagCollector | null,
): DataLoader<string, DeliveryRow[]> {
  return new DataLoader<string, DeliveryRow[]>(
    async (parentIds) => {
      budget.spendStatement();
      const rows = await visibleRows(scope, visibility)
        .where(anyText('parent_id', parentIds))
        .orderBy('position')
        .orderBy('id')
        .execute();
      tags?.records(rows.map((row) => row.id));
      const byParent = new Map<string, DeliveryRow[]>(parentIds.map((id) => [id, []]));
      for (const row of rows) byParent.get(row.parent_id as string)?.push(row as DeliveryRow);
      return parentIds.map((id) => byParent.get(id) ?? []);
    },
    { maxBatchSize: 5_000 },
  );
}
