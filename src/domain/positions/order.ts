/**
 * Position rules of a model's form. A model's fields and fieldsets
 * form sibling groups: the top level (fieldsets and fields without a fieldset share one
 * ordering) and one group per fieldset. A position is any integer ≥ 0, kept as sent, and
 * each change shifts the siblings the way DatoCMS does (the `datocms` CLI's migration
 * generator replays the same arithmetic when it plans moves):
 * - placing a member at `p` moves every sibling at `p` or after one place down;
 * - taking a member out moves every sibling after it one place up;
 * - a member placed with no position goes last: one past the highest position (1 in an
 *   empty group).
 * So a group numbered 1..n stays 1..n, and a script built on 0-based positions ends in the
 * order it meant, with the numbers it meant.
 */

export type MemberKind = 'field' | 'fieldset';
export type Member = { kind: MemberKind; id: string };
export type Placed = Member & { position: number };

/** The group a member sits in: the model's top level (fieldsetId null) or one fieldset. */
export type GroupKey = { itemTypeId: string; fieldsetId: string | null };

export function sameGroup(a: GroupKey, b: GroupKey): boolean {
  return a.itemTypeId === b.itemTypeId && a.fieldsetId === b.fieldsetId;
}

/** One past the highest position of the group: where an appended member goes. */
export function endOf(group: readonly Placed[]): number {
  return group.reduce((max, member) => Math.max(max, member.position), 0) + 1;
}

/**
 * How the siblings of a member placed, taken out or moved shift: those at positions from
 * `min` to `max` (no `max`: every one after `min`) move by `by`. Groups held in memory
 * (fields, fieldsets) and groups shifted in the database (records) follow the same shifts.
 */
export type Shift = { min: number; max?: number; by: 1 | -1 };

/** Taking out the member at `position`: the siblings after it move one place up. */
export function closingGap(position: number): Shift {
  return { min: position + 1, by: -1 };
}

/** Placing a member at `position`: the siblings from there on move one place down. */
export function makingRoom(position: number): Shift {
  return { min: position, by: 1 };
}

/**
 * Moving a member within its group from `from` to `to`: closingGap(from) then
 * makingRoom(to), as one shift of the siblings between the two places (the siblings
 * sharing `to` with it move down when it stays).
 */
export function movingWithin(from: number, to: number): Shift {
  return from < to ? { min: from + 1, max: to, by: -1 } : { min: to, max: from, by: 1 };
}

/** The members with this shift applied. */
export function shifted(group: readonly Placed[], shift: Shift): Placed[] {
  return group.map((member) =>
    member.position >= shift.min && (shift.max === undefined || member.position <= shift.max)
      ? { ...member, position: member.position + shift.by }
      : member,
  );
}

/** The group without this member; the siblings after it move one place up. */
export function without(group: readonly Placed[], id: string): Placed[] {
  const removed = group.find((member) => member.id === id);
  const rest = group.filter((member) => member.id !== id);
  if (!removed) return rest;
  return shifted(rest, closingGap(removed.position));
}

/**
 * The group with `member` at `position` (siblings from there on move one place down), or
 * last when no position is given. A member already in the group is taken out first.
 */
export function withInserted(
  group: readonly Placed[],
  member: Member,
  position: number | undefined,
): Placed[] {
  const rest = without(group, member.id);
  const at = position ?? endOf(rest);
  return sortGroup([...shifted(rest, makingRoom(at)), { ...member, position: at }]);
}

/** Display order: by position, a fieldset before a field on a tie. */
export function sortGroup(group: Placed[]): Placed[] {
  return group.sort(
    (a, b) =>
      a.position - b.position || Number(b.kind === 'fieldset') - Number(a.kind === 'fieldset'),
  );
}
