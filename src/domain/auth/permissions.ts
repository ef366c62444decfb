import { BoundedMemo } from '../../bounded-memo.ts';
import { deepFreeze } from '../caches/deep-freeze.ts';
import {
  PERMISSION_LISTS,
  ROLE_FLAGS,
  type RoleAttributes,
  roleAttributes,
} from './role-attributes.ts';
import { lineage, type RoleGraph } from './role-graph.ts';

type EnvironmentsAccess = RoleAttributes['environments_access'];

/** The union of several accesses: primary_only plus sandbox_only reach every environment. */
function widestAccess(accesses: EnvironmentsAccess[]): EnvironmentsAccess {
  const primary = accesses.some((access) => access === 'all' || access === 'primary_only');
  const sandbox = accesses.some((access) => access === 'all' || access === 'sandbox_only');
  if (primary && sandbox) return 'all';
  if (primary) return 'primary_only';
  return sandbox ? 'sandbox_only' : 'none';
}

function union(lists: unknown[][]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const entry of lists.flat()) seen.set(JSON.stringify(entry), entry);
  return [...seen.values()];
}

/**
 * Several roles' permissions combined: a flag granted by any is granted, and the
 * permission lists are united (positives with positives, negatives with negatives).
 */
function mergeRoleAttributes(all: RoleAttributes[]): RoleAttributes {
  const merged = roleAttributes({
    environments_access: widestAccess(all.map((a) => a.environments_access)),
  });
  for (const flag of ROLE_FLAGS) merged[flag] = all.some((attributes) => attributes[flag]);
  for (const list of PERMISSION_LISTS)
    merged[list] = union(all.map((attributes) => attributes[list]));
  return merged;
}

// Final permissions of roles that inherit nothing, by their stored attributes' text: every
// request derives them, and the text is the whole input, so an entry can never go stale.
// Roles are few.
const byAttributesText = new BoundedMemo<string, RoleAttributes>(1_000);

/**
 * The final permissions of a role that inherits from no other role, from its attributes
 * as stored (jsonb text): computed once per distinct text and frozen, so callers share it.
 */
export function ownPermissions(attributesText: string): RoleAttributes {
  return byAttributesText.get(attributesText, () =>
    deepFreeze(
      mergeRoleAttributes([roleAttributes(JSON.parse(attributesText) as Partial<RoleAttributes>)]),
    ),
  );
}

/** A role's own permissions together with everything it inherits (its meta.final_permissions). */
export function finalPermissions(roleId: string, graph: RoleGraph): RoleAttributes {
  return mergeRoleAttributes(lineage(roleId, graph).map((node) => roleAttributes(node.attributes)));
}
