import { DomainError } from '../errors.ts';
import type { Member, Placed } from './order.ts';

/** One entry of a bulk reorder: the member, the fieldset it goes into (null = top level), its slot. */
export type ReorderRequest = { member: Member; fieldsetId: string | null; position: number };

/**
 * Every group of a model after a bulk reorder. `groups` maps each fieldset id (null =
 * top level) to its members in display order. Listed members take their slots; the
 * others keep their relative order and fill the remaining slots of their group.
 */
export function layoutGroups(
  groups: ReadonlyMap<string | null, readonly Placed[]>,
  requests: readonly ReorderRequest[],
): Map<string | null, Member[]> {
  const requested = new Map(requests.map((request) => [request.member.id, request]));
  const members = new Map<string | null, { member: Member; pinned: number | null }[]>();
  for (const key of groups.keys()) members.set(key, []);
  for (const [key, group] of groups) {
    for (const member of group) {
      if (!requested.has(member.id)) members.get(key)?.push({ member, pinned: null });
    }
  }
  for (const request of requests) {
    const group = members.get(request.fieldsetId);
    if (!group) throw new Error(`unknown group ${request.fieldsetId}`);
    group.push({ member: request.member, pinned: request.position });
  }

  const result = new Map<string | null, Member[]>();
  for (const [key, group] of members) {
    const slots: (Member | undefined)[] = new Array(group.length).fill(undefined);
    for (const { member, pinned } of group) {
      if (pinned === null) continue;
      if (pinned > group.length) {
        throw new DomainError(
          'INVALID_POSITION',
          `position ${pinned} of ${member.id} is past the end of its group (${group.length})`,
          { position: pinned },
        );
      }
      if (slots[pinned - 1]) {
        throw new DomainError(
          'DUPLICATE_POSITIONS_FOUND',
          `two members of the same group were given position ${pinned}`,
          { position: pinned },
        );
      }
      slots[pinned - 1] = member;
    }
    const rest = group.filter((entry) => entry.pinned === null).map((entry) => entry.member);
    const order: Member[] = [];
    for (const slot of slots) {
      const next = slot ?? rest.shift();
      if (next) order.push(next);
    }
    result.set(key, order);
  }
  return result;
}
