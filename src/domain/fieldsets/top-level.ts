import type { GroupKey } from '../positions/order.ts';

/** A model's top level, the group fieldsets are placed in (fieldsets do not nest). */
export function topLevelOf(itemTypeId: string): GroupKey {
  return { itemTypeId, fieldsetId: null };
}
