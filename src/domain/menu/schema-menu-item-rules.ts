import type { SchemaMenuItemRow } from '../../db/schema.ts';
import { DomainError, Issues } from '../errors.ts';
import { checkRoomFor } from '../limits.ts';
import { checkRequiredText } from '../text-checks.ts';
import type { Placement, TreeNode } from './tree.ts';
import { checkNewId, checkParents, checkPosition } from './tree-rules.ts';

export type SchemaMenuItemKind = SchemaMenuItemRow['kind'];

/** A request, already shape-checked by the HTTP layer; relationship ids, null clears. */
export type SchemaMenuItemInput = {
  id?: string;
  attributes: Partial<{ label: string | null; position: number; kind: SchemaMenuItemKind }>;
  relationships: Partial<Record<'item_type' | 'parent', string | null>>;
  /** On update: exactly these items become the children, in this order. */
  children?: string[];
};

export type SchemaMenuItemDraft = Pick<
  SchemaMenuItemRow,
  'label' | 'kind' | 'item_type_id' | 'parent_id'
>;

export const NEW_SCHEMA_MENU_ITEM: SchemaMenuItemDraft = {
  label: null,
  kind: 'item_type',
  item_type_id: null,
  parent_id: null,
};

export function applySchemaMenuItemInput(
  base: SchemaMenuItemDraft,
  input: SchemaMenuItemInput,
): SchemaMenuItemDraft {
  const { attributes: a, relationships: r } = input;
  return {
    label: a.label === undefined ? base.label : a.label,
    kind: a.kind ?? base.kind,
    item_type_id: r.item_type === undefined ? base.item_type_id : r.item_type,
    parent_id: r.parent === undefined ? base.parent_id : r.parent,
  };
}

/**
 * Where the change puts items: this one, the listed children in order, and former
 * children left out of the list, which move to the end of the top level.
 */
export function schemaMenuPlacements(
  id: string,
  next: SchemaMenuItemDraft,
  input: SchemaMenuItemInput,
  nodes: TreeNode[],
): Map<string, Placement> {
  const placements = new Map<string, Placement>([
    [id, { parentId: next.parent_id, position: input.attributes.position ?? null }],
  ]);
  if (!input.children) return placements;
  for (const node of nodes) {
    if (node.parentId === id) placements.set(node.id, { parentId: null, position: null });
  }
  input.children.forEach((child, index) => {
    placements.set(child, { parentId: id, position: index + 1 });
  });
  return placements;
}

/** Items tied to a model are managed with it: they cannot be made, and their kind is fixed. */
function checkLink(before: SchemaMenuItemDraft | null, next: SchemaMenuItemDraft): void {
  if (before === null && next.item_type_id !== null) {
    throw new DomainError(
      'CANNOT_CREATE_OR_DESTROY_SCHEMA_MENU_ITEM_LINKED_TO_ITEM_TYPE',
      'schema menu items of models are created with the model',
    );
  }
  if (before !== null && before.item_type_id !== null && before.kind !== next.kind) {
    throw new DomainError(
      'KIND_CANNOT_BE_CHANGED',
      'the kind of a schema menu item linked to a model cannot be changed',
    );
  }
}

export function validateSchemaMenuItem(
  id: string,
  before: SchemaMenuItemDraft | null,
  next: SchemaMenuItemDraft,
  input: SchemaMenuItemInput,
  ctx: { nodes: TreeNode[]; placements: Map<string, Placement> },
): void {
  checkLink(before, next);
  if (before === null) checkRoomFor('schema_menu_items', ctx.nodes.length);
  const issues = new Issues('SchemaMenuItem');
  checkNewId(issues, input.id, ctx.nodes);
  // Only a raw request can omit it: the client always sends `attributes` on create.
  if (before === null && input.attributes.kind === undefined)
    issues.add('kind', 'VALIDATION_REQUIRED', 'must be item_type or modular_block');
  if (next.label !== null) {
    checkRequiredText(issues, 'label', next.label, {
      blankMessage: 'must not be blank (use null for no label)',
    });
  }
  checkPosition(issues, input.attributes.position);
  if (before !== null && before.item_type_id !== next.item_type_id)
    issues.add('item_type', 'VALIDATION_INVALID', 'cannot be changed');
  checkChildren(issues, id, input.children, ctx.nodes);
  checkParents(
    issues,
    ctx.nodes,
    [...ctx.placements].map(([itemId, placement]) => ({
      id: itemId,
      parentId: placement.parentId,
      field: itemId === id ? 'parent' : 'children',
    })),
  );
  issues.throwIfAny();
}

function checkChildren(
  issues: Issues,
  id: string,
  children: string[] | undefined,
  nodes: TreeNode[],
): void {
  const known = new Set(nodes.map((node) => node.id));
  const listed = new Set<string>();
  for (const child of children ?? []) {
    if (child === id) issues.add('children', 'VALIDATION_INVALID', 'an item cannot contain itself');
    else if (!known.has(child)) issues.add('children', 'VALIDATION_INVALID', `${child} not found`);
    else if (listed.has(child))
      issues.add('children', 'VALIDATION_INVALID', `${child} listed twice`);
    listed.add(child);
  }
}
