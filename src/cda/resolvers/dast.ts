import { isBlockNode } from '../../domain/items/blocks/block-values.ts';

// A structured text value (`{ schema: 'dast', document }`) as the delivery API reads it.
// Stored values were parsed from JSON the CMA validated: walking them recursively goes no
// deeper than that parse did.

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collect(node: unknown, types: ReadonlySet<string>, found: unknown[]): void {
  if (!isObject(node)) return;
  if (typeof node.type === 'string' && types.has(node.type) && 'item' in node)
    found.push(node.item);
  if (Array.isArray(node.children)) for (const child of node.children) collect(child, types, found);
}

/** The `item` of every node of these types (`block`, `itemLink` …), in document order. */
export function dastItems(value: unknown, types: ReadonlySet<string>): unknown[] {
  const found: unknown[] = [];
  if (isObject(value)) collect(value.document, types, found);
  return found;
}

function withIds(node: unknown): unknown {
  if (!isObject(node)) return node;
  const next: Record<string, unknown> = isBlockNode(node.item)
    ? { ...node, item: node.item.id }
    : { ...node };
  if (Array.isArray(node.children)) next.children = node.children.map(withIds);
  return next;
}

/**
 * The value as DatoCMS serves it: block and inline block nodes name their block by id
 * (published versions hold the blocks themselves inline).
 */
export function dastWithBlockIds(value: unknown): unknown {
  if (!isObject(value)) return null;
  return { ...value, document: withIds(value.document) };
}
