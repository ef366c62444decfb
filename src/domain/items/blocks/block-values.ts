import { MAX_NESTING_DEPTH } from '../../limits.ts';

/**
 * Blocks inside record values (rich_text, single_block, structured_text). A stored value
 * names its blocks by id; a snapshot (a version's values, the published values) holds each
 * block inline as a BlockNode, so it never depends on a block a later save removed.
 */

/**
 * A field as record values need it: where its values name blocks, whether per locale, and
 * the api_key its values are shown under.
 */
export type BlockHoldingField = {
  id: string;
  api_key: string;
  field_type: string;
  localized: boolean;
};

/** A block inline in a snapshot: its model and its own values (by field id, snapshots too). */
export type BlockNode = {
  id: string;
  item_type_id: string;
  values: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

/** The fields of every block model, by block model id. */
export type BlockModelFields = ReadonlyMap<string, readonly BlockHoldingField[]>;

const BLOCK_FIELD_TYPES = ['rich_text', 'single_block', 'structured_text'];

export function holdsBlocks(field: { field_type: string }): boolean {
  return BLOCK_FIELD_TYPES.includes(field.field_type);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isBlockNode(value: unknown): value is BlockNode {
  return isObject(value) && typeof value.item_type_id === 'string' && isObject(value.values);
}

/** Where a block sits in a value: its locale (localized fields) and its index. */
export type BlockPlace = (string | number)[];

/**
 * `level`: how many levels below the value holding it a block sits. One in a modular
 * content or single block value; in structured text, the depth of its node (a `block`
 * node under the root is 1, an `inlineBlock` in a list item's paragraph 4): the levels a
 * record's content nests count both (MAX_NESTING_DEPTH).
 */
type RefMapper = (ref: unknown, place: BlockPlace, level: number) => unknown;

/**
 * Structured text: `block` and `inlineBlock` nodes name blocks, in document order. Nodes
 * deeper than MAX_NESTING_DEPTH are left as they are: no valid document holds them (the
 * dast check refuses it), so no walk goes further than that.
 */
function mapDast(
  node: unknown,
  fn: (ref: unknown, level: number) => unknown,
  depth: number,
): unknown {
  if (!isObject(node) || depth > MAX_NESTING_DEPTH) return node;
  let next = node;
  if ((node.type === 'block' || node.type === 'inlineBlock') && 'item' in node)
    next = { ...node, item: fn(node.item, depth) };
  if (Array.isArray(node.children))
    next = { ...next, children: node.children.map((child) => mapDast(child, fn, depth + 1)) };
  return next;
}

/** Replaces each block reference of one locale's value (a value of the wrong shape is kept). */
function mapOne(fieldType: string, value: unknown, place: BlockPlace, fn: RefMapper): unknown {
  if (value === null || value === undefined) return value;
  if (fieldType === 'rich_text')
    return Array.isArray(value)
      ? value.map((item, index) => fn(item, [...place, index], 1))
      : value;
  if (fieldType === 'single_block') return fn(value, place, 1);
  if (fieldType === 'structured_text' && isObject(value) && isObject(value.document)) {
    let index = 0;
    const document = mapDast(
      value.document,
      (item, level) => fn(item, [...place, index++], level),
      0,
    );
    return { ...value, document };
  }
  return value;
}

/** Replaces each block reference of a field's value, in every locale of a localized field. */
export function mapBlockRefs(field: BlockHoldingField, value: unknown, fn: RefMapper): unknown {
  if (!holdsBlocks(field)) return value;
  if (!field.localized || !isObject(value)) return mapOne(field.field_type, value, [], fn);
  return Object.fromEntries(
    Object.entries(value).map(([locale, inLocale]) => [
      locale,
      mapOne(field.field_type, inLocale, [locale], fn),
    ]),
  );
}

/** Structured text without the `block` / `inlineBlock` nodes naming these blocks. */
function dropDast(node: unknown, gone: ReadonlySet<string>, depth = 0): unknown {
  if (!isObject(node) || !Array.isArray(node.children) || depth >= MAX_NESTING_DEPTH) return node;
  const children = node.children
    .filter(
      (child) =>
        !(
          isObject(child) &&
          (child.type === 'block' || child.type === 'inlineBlock') &&
          typeof child.item === 'string' &&
          gone.has(child.item)
        ),
    )
    .map((child) => dropDast(child, gone, depth + 1));
  return { ...node, children };
}

function dropOne(fieldType: string, value: unknown, gone: ReadonlySet<string>): unknown {
  if (fieldType === 'rich_text' && Array.isArray(value))
    return value.filter((item) => !(typeof item === 'string' && gone.has(item)));
  if (fieldType === 'single_block')
    return typeof value === 'string' && gone.has(value) ? null : value;
  if (fieldType === 'structured_text' && isObject(value) && isObject(value.document))
    return { ...value, document: dropDast(value.document, gone) };
  return value;
}

/** A field's value no longer naming these blocks (in every locale). */
export function withoutBlocks(
  field: BlockHoldingField,
  value: unknown,
  gone: ReadonlySet<string>,
): unknown {
  if (!holdsBlocks(field)) return value;
  if (!field.localized || !isObject(value)) return dropOne(field.field_type, value, gone);
  return Object.fromEntries(
    Object.entries(value).map(([locale, inLocale]) => [
      locale,
      dropOne(field.field_type, inLocale, gone),
    ]),
  );
}

/** Every block reference of a field's value, with its place and level (see RefMapper). */
export function blockRefsOf(
  field: BlockHoldingField,
  value: unknown,
): { ref: unknown; place: BlockPlace; level: number }[] {
  const found: { ref: unknown; place: BlockPlace; level: number }[] = [];
  mapBlockRefs(field, value, (ref, place, level) => {
    found.push({ ref, place, level });
    return ref;
  });
  return found;
}

/** Values (by field id) whose block references are mapped by `fn`, recursively or not. */
export function mapValues(
  fields: readonly BlockHoldingField[],
  values: Record<string, unknown>,
  fn: RefMapper,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const field of fields)
    if (holdsBlocks(field) && values[field.id] !== undefined)
      out[field.id] = mapBlockRefs(field, values[field.id], fn);
  return out;
}

/** A snapshot's values as a default read gives them: each block by its id. */
export function blockIdValues(
  fields: readonly BlockHoldingField[],
  snapshot: Record<string, unknown>,
): Record<string, unknown> {
  return mapValues(fields, snapshot, (node) => (isBlockNode(node) ? node.id : node));
}

/** What showing blocks whole needs: every block model's fields, and the record's version. */
export type NestedContext = {
  blockFields: BlockModelFields;
  /** The version of the record the blocks are read from (a block is saved with its record). */
  version: string;
};
