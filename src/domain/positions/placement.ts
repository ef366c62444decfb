import type { EnvTrx } from '../../db/environment-scope.ts';
import { loadGroup, storeGroup } from './group-store.ts';
import {
  type GroupKey,
  type Member,
  type Placed,
  sameGroup,
  withInserted,
  without,
} from './order.ts';

/** Where a member ended up, and the siblings that shifted to make room or close a gap. */
export type Placement = { position: number; shifted: Placed[] };

function placementOf(after: readonly Placed[], moved: Placed[], id: string): Placement {
  return {
    position: after.find((member) => member.id === id)?.position ?? 0,
    shifted: moved.filter((member) => member.id !== id),
  };
}

/**
 * Stores the siblings a new member shifted, not the member itself: the caller inserts it
 * with the position returned, and an append shifts nobody, so it writes nothing.
 */
async function storeAround(
  trx: EnvTrx,
  key: GroupKey,
  before: readonly Placed[],
  after: readonly Placed[],
  member: Member,
): Promise<Placement> {
  const siblings = after.filter((sibling) => sibling.id !== member.id);
  return placementOf(after, await storeGroup(trx, key, before, siblings), member.id);
}

/**
 * Makes room for a member about to be created: at `position` (siblings from there on
 * shift down) or last. The caller inserts the member with the position returned.
 */
export async function placeNew(
  trx: EnvTrx,
  key: GroupKey,
  member: Member,
  position: number | undefined,
): Promise<Placement> {
  return placeNewIn(trx, key, await loadGroup(trx, key), member, position);
}

/** placeNew for a caller that already holds the group's members, read under the lock. */
export async function placeNewIn(
  trx: EnvTrx,
  key: GroupKey,
  before: readonly Placed[],
  member: Member,
  position: number | undefined,
): Promise<Placement> {
  return storeAround(trx, key, before, withInserted(before, member, position), member);
}

/**
 * Makes room for a member about to be created right after `afterId` (a copy of it), in a
 * group whose members the caller holds.
 */
export async function placeAfterIn(
  trx: EnvTrx,
  key: GroupKey,
  before: readonly Placed[],
  member: Member,
  afterId: string,
): Promise<Placement> {
  const original = before.find((sibling) => sibling.id === afterId);
  const after = withInserted(before, member, original ? original.position + 1 : undefined);
  return storeAround(trx, key, before, after, member);
}

/**
 * Moves an existing member within its group, or into another one (last there when no
 * position is given: the fieldset changes, not the place asked for).
 */
export async function moveMember(
  trx: EnvTrx,
  member: Placed,
  from: GroupKey,
  to: GroupKey,
  position: number | undefined,
): Promise<Placement> {
  if (sameGroup(from, to)) {
    const before = await loadGroup(trx, to);
    const after = withInserted(before, member, position ?? member.position);
    return placementOf(after, await storeGroup(trx, to, before, after), member.id);
  }
  const [fromBefore, toBefore] = await Promise.all([loadGroup(trx, from), loadGroup(trx, to)]);
  const fromAfter = without(fromBefore, member.id);
  const toAfter = withInserted(toBefore, member, position);
  const closed = await storeGroup(trx, from, fromBefore, fromAfter);
  const opened = await storeGroup(trx, to, toBefore, toAfter);
  return placementOf(toAfter, [...closed, ...opened], member.id);
}

/**
 * Takes a member out of its group before it is deleted, the caller holding the group's
 * members as read under the lock: the siblings after it shift up (those are returned).
 */
export async function removeMemberIn(
  trx: EnvTrx,
  key: GroupKey,
  before: readonly Placed[],
  id: string,
): Promise<Placed[]> {
  return storeGroup(trx, key, before, without(before, id));
}
