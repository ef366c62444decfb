import type { Issues } from '../errors.ts';
import { checkIdFormat } from '../ids.ts';
import { MAX_POSITION } from '../limits.ts';
import { isOwnAncestor, type TreeNode } from './tree.ts';

/** A client-chosen id must be well formed and not used yet. */
export function checkNewId(issues: Issues, id: string | undefined, nodes: TreeNode[]): void {
  if (id === undefined || !checkIdFormat(issues, 'id', id)) return;
  if (nodes.some((node) => node.id === id))
    issues.add('id', 'VALIDATION_UNIQUENESS', 'is already taken');
}

/** Any integer from 0, within what the database's integer holds. */
export function checkPosition(issues: Issues, position: number | undefined): void {
  if (position !== undefined && (position < 0 || position > MAX_POSITION))
    issues.add('position', 'VALIDATION_INVALID', `must be from 0 to ${MAX_POSITION}`);
}

/** A requested parent change, reported against `field` when it is refused. */
export type ParentChange = { id: string; parentId: string | null; field: string };

/** Parents must exist and, once every change is applied, no item may be its own ancestor. */
export function checkParents(issues: Issues, nodes: TreeNode[], changes: ParentChange[]): void {
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  for (const change of changes) {
    if (change.parentId !== null && !parentOf.has(change.parentId))
      issues.add(change.field, 'VALIDATION_INVALID', `${change.parentId} not found`);
  }
  for (const change of changes) parentOf.set(change.id, change.parentId);
  for (const change of changes) {
    if (isOwnAncestor(parentOf, change.id))
      issues.add(change.field, 'VALIDATION_INVALID', 'an item cannot be nested inside itself');
  }
}
