import DataLoader from 'dataloader';
import type { Scope } from '../../db/environment-scope.ts';
import { anyText } from '../../db/query/any-text.ts';
import { selectRowsAsJson } from '../../db/query/json-rows.ts';
import type { ExecutionBudget } from '../limits/execution-budget.ts';

/** A stored block of a record's current version: its model and its own values. */
export type StoredBlock = Readonly<{
  id: string;
  item_type_id: string;
  values: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}>;

/**
 * Stored blocks by id for one request (current versions name their blocks by id; published
 * versions hold them inline and need no statement): every block field resolved in one tick
 * is loaded by one statement, so blocks cost one statement per nesting level.
 */
export function blockLoader(
  scope: Scope,
  budget: ExecutionBudget,
): DataLoader<string, StoredBlock | null> {
  return new DataLoader<string, StoredBlock | null>(
    async (ids) => {
      budget.spendStatement();
      const rows = await selectRowsAsJson(
        scope.db,
        scope.db
          .selectFrom('blocks')
          .select(['id', 'item_type_id', 'created_at', 'updated_at'])
          .select('item_values as values')
          .where(anyText('id', ids)),
        { dates: ['created_at', 'updated_at'] },
      );
      const byId = new Map(rows.map((row) => [row.id, row as StoredBlock]));
      return ids.map((id) => byId.get(id) ?? null);
    },
    { maxBatchSize: 5_000 },
  );
}
