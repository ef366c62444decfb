import type { ModelState } from '../../schema/model-state.ts';

/** The model state after its singleton record was set (an id) or removed (null). */
export function withSingletonItem(state: ModelState, itemId: string | null): ModelState {
  const itemType = { ...state.itemType, singleton_item_id: itemId, has_singleton_item: !!itemId };
  return { ...state, itemType };
}
