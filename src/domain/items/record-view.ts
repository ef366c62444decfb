import type { EnvQueryable } from '../../db/environment-scope.ts';
import { anyText } from '../../db/query/any-text.ts';
import type { ItemRow, ItemTypeRow } from '../../db/schema.ts';
import type { BlockHoldingField, NestedContext } from './blocks/block-values.ts';

/**
 * A record as a read or a write leaves it: what the CMA (and any other API) shows it from.
 * `values` are by field id; with `blocks` they hold their blocks inline, to be shown whole
 * (`?nested=true`, the nested entity of an event), else blocks are named by id.
 */
export type RecordView = {
  row: Omit<ItemRow, 'seq' | 'published_values'>;
  model: Pick<ItemTypeRow, 'sortable' | 'tree'>;
  fields: readonly BlockHoldingField[];
  values: Record<string, unknown>;
  blocks?: NestedContext;
  /** For a tree record, whether another record names it as parent; null otherwise. */
  hasChildren: boolean | null;
};

/** A record's view, its tree meta not known yet (withTreeMeta fills it). */
export function recordView(
  row: RecordView['row'],
  model: RecordView['model'],
  fields: readonly BlockHoldingField[],
  values: Record<string, unknown> = row.item_values,
  blocks?: NestedContext,
): RecordView {
  return { row, model, fields, values, ...(blocks ? { blocks } : {}), hasChildren: null };
}

/**
 * Fills `hasChildren` of tree records: true when another record names it as parent. One
 * query for any number of records; other records keep null, as the client's ItemMeta has
 * it. Called where records are read (reads, and each write's event, whose record the
 * write answers), so responses and webhook payloads say the same.
 */
export async function withTreeMeta<T extends RecordView | RecordView[]>(
  db: EnvQueryable,
  views: T,
): Promise<T> {
  const list: RecordView[] = Array.isArray(views) ? views : [views];
  const treeIds = new Set(list.filter((view) => view.model.tree).map((view) => view.row.id));
  if (treeIds.size === 0) return views;
  const parents = await db
    .selectFrom('items')
    .select('parent_id')
    .distinct()
    .where(anyText('parent_id', [...treeIds]))
    .execute();
  const withChildren = new Set(parents.map((row) => row.parent_id));
  for (const view of list)
    if (treeIds.has(view.row.id)) view.hasChildren = withChildren.has(view.row.id);
  return views;
}
