import {
  type BlockHoldingField,
  type BlockNode,
  isBlockNode,
  mapValues,
  type NestedContext,
} from '../domain/items/blocks/block-values.ts';
import { MAX_NESTING_DEPTH } from '../domain/limits.ts';
import { presentedAttributes } from './attributes.ts';
import { isoTime, type Resource, ref } from './jsonapi.ts';

/**
 * A block as `?nested=true` gives it: a whole `item` with its own blocks nested too, down
 * to MAX_NESTING_DEPTH (`depth`: the block's level in the record).
 */
export function presentBlock(node: BlockNode, context: NestedContext, depth: number): Resource {
  const fields = context.blockFields.get(node.item_type_id) ?? [];
  const attributes = presentedAttributes(fields, nestedValues(fields, node.values, context, depth));
  return {
    type: 'item',
    id: node.id,
    attributes,
    relationships: { item_type: { data: ref('item_type', node.item_type_id) } },
    meta: {
      created_at: isoTime(node.created_at),
      updated_at: isoTime(node.updated_at),
      published_at: null,
      first_published_at: null,
      publication_scheduled_at: null,
      unpublishing_scheduled_at: null,
      status: null,
      is_valid: true,
      is_current_version_valid: null,
      is_published_version_valid: null,
      current_version: context.version,
      stage: null,
      has_children: null,
    },
  };
}

/**
 * A snapshot's values with every block presented whole (`?nested=true`). `depth`: the level
 * of the values' holder (0: the record). Blocks past MAX_NESTING_DEPTH, which only content
 * stored before the limit existed can hold, are given by id: the walk stops there.
 */
export function nestedValues(
  fields: readonly BlockHoldingField[],
  snapshot: Record<string, unknown>,
  context: NestedContext,
  depth = 0,
): Record<string, unknown> {
  return mapValues(fields, snapshot, (node, _place, level) => {
    if (!isBlockNode(node)) return node;
    const at = depth + level;
    return at > MAX_NESTING_DEPTH ? node.id : presentBlock(node, context, at);
  });
}
