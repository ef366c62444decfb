import DataLoader from 'dataloader';
import type { Scope } from '../../db/environment-scope.ts';
import type { ItemsWhere } from '../../domain/items/readable-records.ts';
import type { ExecutionBudget } from '../limits/execution-budget.ts';
import { type DeliveryRow, META_COLUMNS, versionColumns } from './rows.ts';

/**
 * Records by id for one request: every link resolved in one tick is loaded by one
 * statement, so a list of 500 records with links costs one statement per link level.
 * A record not published (without drafts), invalid (strict mode) or not readable by the
 * role is null.
 */
export function recordLoader(
  scope: Scope,
  drafts: boolean,
  strict: boolean,
  readable: ItemsWhere | null,
  budget: ExecutionBudget,
): DataLoader<string, DeliveryRow | null> {
  return new DataLoader<string, DeliveryRow | null>(
    async (ids) => {
      budget.spendStatement();
      const rows = await scope.db
        .selectFrom('items')
        .select(META_COLUMNS)
        .select(versionColumns(drafts))
        .where('id', 'in', [...ids])
        .$if(!drafts, (query) => query.where('published_values', 'is not', null))
        .$if(strict, (query) =>
          query.where(drafts ? 'current_valid' : 'published_valid', '=', true),
        )
        .$if(readable !== null, (query) => query.where((eb) => (readable as ItemsWhere)(eb)))
        .execute();
      const byId = new Map(rows.map((row) => [row.id, row as DeliveryRow]));
      return ids.map((id) => byId.get(id) ?? null);
    },
    // A page holds at most 500 records with a few links each: one statement per level.
    { maxBatchSize: 5_000 },
  );
}
