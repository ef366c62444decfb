import { Issues } from '../errors.ts';
import type { Placement, TreeNode } from '../menu/tree.ts';
import { checkParents, checkPosition, type ParentChange } from '../menu/tree-rules.ts';

/** What a create or an update sends; absent keys keep their values. */
export type UploadCollectionInput = {
  id?: string;
  label?: string;
  position?: number;
  /** null: the top level. */
  parentId?: string | null;
  /** On update: these collections become its children, first to last. */
  childIds?: readonly string[];
};

export function newIssues(): Issues {
  return new Issues('UploadCollection');
}

export function checkLabel(issues: Issues, label: string | undefined, required: boolean): void {
  if (label === undefined ? required : label.trim() === '')
    issues.add('label', 'VALIDATION_REQUIRED', 'must not be blank');
}

/**
 * Where the change puts the collection and the children it lists, after checking that
 * every named parent and child exists and that no collection ends up inside itself.
 */
export function placementsOf(
  issues: Issues,
  nodes: TreeNode[],
  id: string,
  parentId: string | null,
  input: UploadCollectionInput,
): Map<string, Placement> {
  checkPosition(issues, input.position);
  const changes: ParentChange[] = [{ id, parentId, field: 'parent' }];
  const known = new Set(nodes.map((node) => node.id));
  for (const childId of input.childIds ?? []) {
    if (!known.has(childId)) issues.add('children', 'VALIDATION_INVALID', `${childId} not found`);
    else changes.push({ id: childId, parentId: id, field: 'children' });
  }
  checkParents(
    issues,
    [...nodes, ...(known.has(id) ? [] : [{ id, parentId, position: 0 }])],
    changes,
  );
  const placements = new Map<string, Placement>([
    [id, { parentId, position: input.position ?? null }],
  ]);
  input.childIds?.forEach((childId, index) => {
    placements.set(childId, { parentId: id, position: index + 1 });
  });
  return placements;
}
