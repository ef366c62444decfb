import type { ItemTypeFilterColumn, ItemTypeFilterRow } from '../../db/schema.ts';
import { Issues } from '../errors.ts';
import { MAX_NAME_LENGTH } from '../limits.ts';
import { checkJsonSize, checkSavedFilter } from '../saved-filters.ts';
import { checkMaxLength } from '../text-checks.ts';

/** Attributes and relationships a client may send, already shape-checked by the HTTP layer. */
export type ItemTypeFilterInput = {
  id?: string;
  attributes: Partial<{
    name: string;
    filter: Record<string, unknown>;
    columns: ItemTypeFilterColumn[] | null;
    order_by: string | null;
    shared: boolean;
  }>;
  relationships: Partial<Record<'item_type', string | null>>;
};

export type ItemTypeFilterDraft = Omit<ItemTypeFilterRow, 'created_at' | 'seq' | 'item_type_id'> & {
  item_type_id: string | null;
};

export function emptyItemTypeFilter(id: string): ItemTypeFilterDraft {
  return {
    id,
    name: '',
    item_type_id: null,
    filter: {},
    columns: null,
    order_by: null,
    shared: false,
  };
}

/** Merges a request into the current state: omitted members keep their value. */
export function applyItemTypeFilterInput(
  base: ItemTypeFilterDraft,
  input: ItemTypeFilterInput,
): ItemTypeFilterDraft {
  const a = input.attributes;
  const itemType = input.relationships.item_type;
  return {
    id: base.id,
    name: a.name ?? base.name,
    item_type_id: itemType === undefined ? base.item_type_id : itemType,
    filter: a.filter ?? base.filter,
    columns: a.columns !== undefined ? a.columns : base.columns,
    order_by: a.order_by !== undefined ? a.order_by : base.order_by,
    shared: a.shared ?? base.shared,
  };
}

/** `itemType`: the model the filter points at, when it exists in the environment. */
export function validateItemTypeFilter(
  next: ItemTypeFilterDraft,
  ctx: { itemType: { modular_block: boolean } | undefined },
): ItemTypeFilterDraft & { item_type_id: string } {
  const issues = new Issues('ItemTypeFilter');
  checkSavedFilter(issues, next);
  if (next.columns !== null && next.columns.length === 0)
    issues.add('columns', 'VALIDATION_INVALID', 'must list at least one column, or be null');
  checkJsonSize(issues, 'columns', next.columns);
  checkMaxLength(issues, 'order_by', next.order_by, MAX_NAME_LENGTH);
  if (next.item_type_id === null) issues.add('item_type', 'VALIDATION_REQUIRED', 'must be a model');
  else if (!ctx.itemType) issues.add('item_type', 'VALIDATION_INVALID', 'item type not found');
  else if (ctx.itemType.modular_block)
    issues.add('item_type', 'VALIDATION_INVALID', 'must be a model, not a block');
  issues.throwIfAny();
  return next as ItemTypeFilterDraft & { item_type_id: string };
}
