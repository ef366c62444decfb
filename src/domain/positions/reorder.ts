import { DomainError } from '../errors.ts';
import { type Member, type Placed, sortGroup } from './order.ts';

/** One entry of a bulk reorder: the member, the fieldset it goes into (null = top level), its slot. */
export type ReorderRequest = { member: Member; fieldsetId: string | null; position: number };

/**
 * Every group of a model after a bulk reorder. `groups` maps each fieldset id (null =
 * top level) to its members in display order. Listed members take the positions sent,
 * kept as sent (0-based lists included); the others in the groups listed
 * members enter or leave keep their relative order and fill the free positions from the
 * first one: 0 when a listed member took 0, else 1. Other groups are left as they are.
 */
export function layoutGroups(
  groups: ReadonlyMap<string | null, readonly Placed[]>,
  requests: readonly ReorderRequest[],
): Map<string | null, Placed[]> {
  const requested = new Set(requests.map((request) => request.member.id));
  const touched = new Set(requests.map((request) => request.fieldsetId));
  for (const [key, group] of groups) {
    if (group.some((member) => requested.has(member.id))) touched.add(key);
  }
  const result = new Map<string | null, Placed[]>();
  for (const [key, group] of groups) {
    if (!touched.has(key)) {
      result.set(key, [...group]);
      continue;
    }
    const pinned = requests.filter((request) => request.fieldsetId === key);
    const taken = new Set<number>();
    for (const { member, position } of pinned) {
      if (taken.has(position)) {
        throw new DomainError(
          'DUPLICATE_POSITIONS_FOUND',
          `two members of the same group were given position ${position} (${member.id})`,
          { position },
        );
      }
      taken.add(position);
    }
    let free = taken.has(0) ? 0 : 1;
    const others = group
      .filter((member) => !requested.has(member.id))
      .map(({ kind, id }) => {
        while (taken.has(free)) free++;
        return { kind, id, position: free++ };
      });
    const placed = pinned.map(({ member, position }) => ({ ...member, position }));
    result.set(key, sortGroup([...placed, ...others]));
  }
  return result;
}
