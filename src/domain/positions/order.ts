/**
 * Position rules of a model's form (spec 02 §8, spec 12 §5). A model's fields and fieldsets
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

/** The group without this member; the siblings after it move one place up. */
export function without(group: readonly Placed[], id: string): Placed[] {
  const removed = group.find((member) => member.id === id);
  const rest = group.filter((member) => member.id !== id);
  if (!removed) return rest;
  return rest.map((member) =>
    member.position > removed.position ? { ...member, position: member.position - 1 } : member,
  );
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
  const shifted = rest.map((sibling) =>
    sibling.position >= at ? { ...sibling, position: sibling.position + 1 } : sibling,
  );
  return sortGroup([...shifted, { ...member, position: at }]);
}

/** Display order: by position, a fieldset before a field on a tie. */
export function sortGroup(group: Placed[]): Placed[] {
  return group.sort(
    (a, b) =>
      a.position - b.position || Number(b.kind === 'fieldset') - Number(a.kind === 'fieldset'),
  );
}
