import { Issues } from '../errors.ts';
import { MAX_NAME_LENGTH, MAX_PERMISSIONS_PER_LIST } from '../limits.ts';
import { checkName } from './names.ts';
import { PERMISSION_LISTS, type RoleAttributes } from './role-attributes.ts';
import { lineage, type RoleGraph } from './role-graph.ts';

export type RoleInput = {
  attributes: Partial<RoleAttributes> & { name?: string };
  /** Replaces the inherited roles when present. */
  inheritsFrom?: string[];
};

export type RoleDraft = { name: string; attributes: RoleAttributes; inheritsFrom: string[] };

export function applyRoleInput(before: RoleDraft, input: RoleInput): RoleDraft {
  const { name, ...attributes } = input.attributes;
  return {
    name: name ?? before.name,
    attributes: { ...before.attributes, ...attributes },
    inheritsFrom: input.inheritsFrom ? [...new Set(input.inheritsFrom)] : before.inheritsFrom,
  };
}

export type RoleContext = {
  /** The role being updated, null on create. */
  roleId: string | null;
  nameTaken: boolean;
  /** Every role, for the inheritance checks. */
  graph: RoleGraph;
};

/**
 * DatoCMS requires each family's positive and negative lists to be sent together:
 * an update replaces what it sends, and half a pair would silently change the balance.
 */
function checkPermissionPairs(input: RoleInput, issues: Issues): void {
  for (const positive of PERMISSION_LISTS.filter((list) => list.startsWith('positive_'))) {
    const negative = positive.replace('positive_', 'negative_') as typeof positive;
    const sent = [positive, negative].filter((list) => input.attributes[list] !== undefined);
    if (sent.length === 1) {
      const missing = sent[0] === positive ? negative : positive;
      issues.add(missing, 'VALIDATION_REQUIRED', `must be sent together with ${sent[0]}`);
    }
  }
}

/** Permission entries are stored as sent: each list, and each id or name in it, is bounded. */
function checkPermissionSizes(input: RoleInput, issues: Issues): void {
  for (const list of PERMISSION_LISTS) {
    const entries = input.attributes[list];
    if (entries === undefined) continue;
    if (entries.length > MAX_PERMISSIONS_PER_LIST)
      issues.add(
        list,
        'VALIDATION_LENGTH',
        `must have at most ${MAX_PERMISSIONS_PER_LIST} entries`,
      );
    const tooLong = entries.some((entry) =>
      Object.values(entry as Record<string, unknown>).some(
        (value) => typeof value === 'string' && value.length > MAX_NAME_LENGTH,
      ),
    );
    if (tooLong)
      issues.add(list, 'VALIDATION_LENGTH', `ids must be at most ${MAX_NAME_LENGTH} characters`);
  }
}

function checkInheritance(draft: RoleDraft, ctx: RoleContext, issues: Issues): void {
  const field = 'inherits_permissions_from';
  const missing = draft.inheritsFrom.filter((id) => !ctx.graph.has(id));
  if (missing.length > 0) {
    issues.add(field, 'VALIDATION_INVALID', `roles not found: ${missing.join(', ')}`);
    return;
  }
  const { roleId } = ctx;
  if (roleId === null) return; // nothing can inherit from a role not created yet
  const cyclic = draft.inheritsFrom.some((parent) =>
    lineage(parent, ctx.graph).some((node) => node.id === roleId),
  );
  if (cyclic)
    issues.add(field, 'VALIDATION_INVALID', 'a role cannot inherit from itself, directly or not');
}

export function validateRole(draft: RoleDraft, input: RoleInput, ctx: RoleContext): void {
  const issues = new Issues('Role');
  checkName(issues, draft.name, ctx.nameTaken);
  checkPermissionSizes(input, issues);
  checkPermissionPairs(input, issues);
  checkInheritance(draft, ctx, issues);
  issues.throwIfAny();
}
