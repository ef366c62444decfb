import type { MenuItemRow } from '../../db/schema.ts';
import { Issues } from '../errors.ts';
import { checkRoomFor, MAX_URL_LENGTH } from '../limits.ts';
import { checkMaxLength, checkRequiredText } from '../text-checks.ts';
import type { TreeNode } from './tree.ts';
import { checkNewId, checkParents, checkPosition } from './tree-rules.ts';

/** A request, already shape-checked by the HTTP layer; relationship ids, null clears. */
export type MenuItemInput = {
  id?: string;
  attributes: Partial<{
    label: string;
    external_url: string | null;
    position: number;
    open_in_new_tab: boolean;
  }>;
  relationships: Partial<Record<'item_type' | 'item_type_filter' | 'parent', string | null>>;
};

export type MenuItemDraft = Pick<
  MenuItemRow,
  | 'label'
  | 'external_url'
  | 'open_in_new_tab'
  | 'item_type_id'
  | 'item_type_filter_id'
  | 'parent_id'
>;

export const NEW_MENU_ITEM: MenuItemDraft = {
  label: '',
  external_url: null,
  open_in_new_tab: false,
  item_type_id: null,
  item_type_filter_id: null,
  parent_id: null,
};

/** Merges a request into the current state: omitted members keep their value. */
export function applyMenuItemInput(base: MenuItemDraft, input: MenuItemInput): MenuItemDraft {
  const { attributes: a, relationships: r } = input;
  return {
    label: a.label ?? base.label,
    external_url: a.external_url === undefined ? base.external_url : a.external_url,
    open_in_new_tab: a.open_in_new_tab ?? base.open_in_new_tab,
    item_type_id: r.item_type === undefined ? base.item_type_id : r.item_type,
    item_type_filter_id:
      r.item_type_filter === undefined ? base.item_type_filter_id : r.item_type_filter,
    parent_id: r.parent === undefined ? base.parent_id : r.parent,
  };
}

export type MenuItemContext = {
  /** The whole menu before the change. */
  nodes: TreeNode[];
  /** The model `item_type` points at, when it exists. */
  itemType: { modular_block: boolean } | undefined;
  /** The saved filter `item_type_filter` points at, when it exists. */
  itemTypeFilter: { item_type_id: string } | undefined;
};

function isWebUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

export function validateMenuItem(
  id: string,
  next: MenuItemDraft,
  input: MenuItemInput,
  ctx: MenuItemContext,
): void {
  // Only a new item adds to the menu; `nodes` holds the menu before the change.
  if (!ctx.nodes.some((node) => node.id === id)) checkRoomFor('menu_items', ctx.nodes.length);
  const issues = new Issues('MenuItem');
  checkNewId(issues, input.id, ctx.nodes);
  checkRequiredText(issues, 'label', next.label);
  if (
    checkMaxLength(issues, 'external_url', next.external_url, MAX_URL_LENGTH) &&
    next.external_url !== null &&
    !isWebUrl(next.external_url)
  )
    issues.add('external_url', 'VALIDATION_FORMAT', 'must be an absolute http(s) URL');
  checkPosition(issues, input.attributes.position);
  if (next.item_type_id !== null) {
    if (!ctx.itemType) issues.add('item_type', 'VALIDATION_INVALID', 'item type not found');
    else if (ctx.itemType.modular_block)
      issues.add('item_type', 'VALIDATION_INVALID', 'must be a model, not a block');
  }
  // A menu item opens the filter on its own model's records.
  if (next.item_type_filter_id !== null) {
    if (!ctx.itemTypeFilter)
      issues.add('item_type_filter', 'VALIDATION_INVALID', 'item type filter not found');
    else if (ctx.itemTypeFilter.item_type_id !== next.item_type_id)
      issues.add(
        'item_type_filter',
        'VALIDATION_INVALID',
        "must be a filter of the menu item's model",
      );
  }
  checkParents(issues, ctx.nodes, [{ id, parentId: next.parent_id, field: 'parent' }]);
  issues.throwIfAny();
}
