/**
 * Position rules of a model's form (spec 02 §8). A model's fields and fieldsets form
 * sibling groups: the top level (fieldsets and fields without a fieldset share one
 * ordering) and one group per fieldset. Positions are 1-based and contiguous within a
 * group; every change lays the group out again, so gaps never survive a write.
 */

export type MemberKind = 'field' | 'fieldset';
export type Member = { kind: MemberKind; id: string };
export type Placed = Member & { position: number };

/** The group a member sits in: the model's top level (fieldsetId null) or one fieldset. */
export type GroupKey = { itemTypeId: string; fieldsetId: string | null };

export function sameGroup(a: GroupKey, b: GroupKey): boolean {
  return a.itemTypeId === b.itemTypeId && a.fieldsetId === b.fieldsetId;
}

/** The group without this member; the others close the gap. */
export function without(order: readonly Member[], id: string): Member[] {
  return order.filter((member) => member.id !== id);
}

/** The group with `member` at `position` (1-based), or last when no position is given. */
export function withInserted(
  order: readonly Member[],
  member: Member,
  position: number | undefined,
): Member[] {
  const rest = without(order, member.id);
  const index = position === undefined ? rest.length : Math.min(position - 1, rest.length);
  return [...rest.slice(0, index), member, ...rest.slice(index)];
}

/** Why `position` cannot be taken in a group that will hold `size` members, or null. */
export function positionProblem(position: number, size: number): string | null {
  if (!Number.isInteger(position) || position < 1) return 'must be an integer of at least 1';
  if (position > size) return `must be at most ${size} (the end of its group)`;
  return null;
}
