import { sql } from 'kysely';
import type { EnvTrx } from '../../db/environment-scope.ts';
import { closingGap, makingRoom, movingWithin, type Shift } from './order.ts';

/**
 * Positions of records of sortable and tree models, with the shifts of order.ts: placing
 * a record at `p` moves its siblings from `p` on one place down, taking one out moves
 * those after it up, as fields, fieldsets and menu items do. A record's siblings are its
 * model's records (sortable) or those with the same parent (tree). A model can hold far
 * more records than a form holds fields, so the shifts run as one UPDATE each instead of
 * loading the group. Record changes hold the environment's lock, so concurrent moves
 * shift one after another.
 */

export type RecordPlace = { parentId: string | null; position: number | null };

/** The sibling group of a record: every record of its model, or of its parent in a tree. */
type RecordGroup = { itemTypeId: string; tree: boolean; parentId: string | null };

function sameGroup(group: RecordGroup, a: RecordPlace, b: RecordPlace): boolean {
  return !group.tree || a.parentId === b.parentId;
}

async function shiftSiblings(
  trx: EnvTrx,
  group: RecordGroup,
  shift: Shift,
  recordId: string,
): Promise<void> {
  let query = trx
    .updateTable('items')
    .set({ position: sql<number>`position + ${shift.by}` })
    .where('item_type_id', '=', group.itemTypeId)
    .where('id', '!=', recordId)
    .where('position', '>=', shift.min);
  if (shift.max !== undefined) query = query.where('position', '<=', shift.max);
  if (group.tree)
    query =
      group.parentId === null
        ? query.where('parent_id', 'is', null)
        : query.where('parent_id', '=', group.parentId);
  await query.execute();
}

/** Makes room for a new record placed at `position`. */
export async function placeNewRecord(
  trx: EnvTrx,
  model: { id: string; tree: boolean },
  recordId: string,
  place: { parentId: string | null; position: number },
): Promise<void> {
  const group = { itemTypeId: model.id, tree: model.tree, parentId: place.parentId };
  await shiftSiblings(trx, group, makingRoom(place.position), recordId);
}

/**
 * Shifts the siblings of a record moving from `before` to `after` (its place after the
 * write): within its group, those between the two places; into another parent, the gap
 * left in the old group closes and room is made in the new one.
 */
export async function moveRecord(
  trx: EnvTrx,
  model: { id: string; tree: boolean },
  recordId: string,
  before: RecordPlace,
  after: RecordPlace,
): Promise<void> {
  const from = { itemTypeId: model.id, tree: model.tree, parentId: before.parentId };
  const to = { ...from, parentId: after.parentId };
  if (sameGroup(from, before, after)) {
    if (before.position !== null && after.position !== null)
      await shiftSiblings(trx, to, movingWithin(before.position, after.position), recordId);
    return;
  }
  if (before.position !== null)
    await shiftSiblings(trx, from, closingGap(before.position), recordId);
  if (after.position !== null) await shiftSiblings(trx, to, makingRoom(after.position), recordId);
}

/** Closes the gap a record taken out of its group leaves. */
export async function removeRecord(
  trx: EnvTrx,
  model: { id: string; tree: boolean },
  recordId: string,
  place: RecordPlace,
): Promise<void> {
  if (place.position === null) return;
  const group = { itemTypeId: model.id, tree: model.tree, parentId: place.parentId };
  await shiftSiblings(trx, group, closingGap(place.position), recordId);
}
