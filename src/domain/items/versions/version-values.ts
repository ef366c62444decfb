import { createHash } from 'node:crypto';
import type { PartRef } from '../../../db/schema.ts';

// Versions' values, stored by content (environment migration 0014): any value inside a
// version whose JSON reaches PART_MIN_BYTES (a long text, a block, a localized value, a
// list of blocks) is stored apart as a part, named by the hash of its content, and left as
// NULL in the value holding it, whose `refs` say which NULLs are parts and which parts
// they are. A part holds its own large values the same way. Equal content has one hash,
// so a record's versions store an unchanged value or block once however many saves name
// it. Parts are found by their place (the path), never by a marker inside the value, so
// every JSON value, whatever keys it uses, reads back exactly as it was saved.

/** A value whose JSON is at least this long is stored as a part of its own. */
export const PART_MIN_BYTES = 512;

/** A part as stored: its content (with holes for its own parts) and where those go. */
export type StoredPart = {
  hash: string;
  /** The JSON of `value` and `refs`, as the hash was taken over and the insert sends. */
  valueJson: string;
  refsJson: string;
};

/** A version's values in the shape they are stored in. */
export type EncodedValues = {
  /** The values, with each part left as NULL. */
  skeleton: Record<string, unknown>;
  refs: PartRef[];
  /** Every part the values reach, each once. */
  parts: Map<string, StoredPart>;
};

type Encoded = { value: unknown; refs: PartRef[]; bytes: number };

/** About the JSON length of a reference to a part, as the value holding it counts it. */
const REF_BYTES = 60;

function storePart(encoded: Encoded, parts: Map<string, StoredPart>): string {
  const valueJson = JSON.stringify(encoded.value);
  const refsJson = JSON.stringify(encoded.refs);
  const hash = createHash('sha256').update(`[${valueJson},${refsJson}]`).digest('base64url');
  if (!parts.has(hash)) parts.set(hash, { hash, valueJson, refsJson });
  return hash;
}

/** An object with these own properties, `__proto__` included (JSON may name it). */
function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  return Object.fromEntries(entries);
}

/**
 * The value with its large values stored as parts (in `parts`): children first, so a part
 * holds its own large values as parts too. Keys are visited in sorted order, so equal
 * content gives equal JSON, hence one hash, whatever order its keys came in.
 */
function encode(node: unknown, parts: Map<string, StoredPart>): Encoded {
  if (typeof node === 'string') return { value: node, refs: [], bytes: node.length + 2 };
  if (node === null || typeof node !== 'object')
    return { value: node, refs: [], bytes: String(node).length };
  const keys: (string | number)[] = Array.isArray(node)
    ? node.map((_, index) => index)
    : Object.keys(node).sort();
  const refs: PartRef[] = [];
  const entries: [string | number, unknown][] = [];
  let bytes = 2;
  for (const key of keys) {
    const child = encode((node as Record<string | number, unknown>)[key], parts);
    if (child.bytes >= PART_MIN_BYTES) {
      entries.push([key, null]);
      refs.push([[key], storePart(child, parts)]);
      bytes += REF_BYTES;
    } else {
      entries.push([key, child.value]);
      for (const [path, hash] of child.refs) refs.push([[key, ...path], hash]);
      bytes += child.bytes;
    }
    bytes += String(key).length + 4;
  }
  const value = Array.isArray(node)
    ? entries.map(([, child]) => child)
    : objectOf(entries as [string, unknown][]);
  return { value, refs, bytes };
}

/** A version's values as they are stored: the skeleton, its refs and every part. */
export function encodeValues(values: Record<string, unknown>): EncodedValues {
  const parts = new Map<string, StoredPart>();
  const encoded = encode(values, parts);
  return { skeleton: encoded.value as Record<string, unknown>, refs: encoded.refs, parts };
}

/** A stored part as read back: its content, holes included, and where its parts go. */
export type ReadPart = { value: unknown; refs: PartRef[] };

/** Sets `container[key]` as an own property, even a key named `__proto__`. */
function place(container: unknown, key: string | number, value: unknown): void {
  Object.defineProperty(container, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** `value` with each ref's part put back in its place, recursively, on a copy. */
function filled(value: unknown, refs: readonly PartRef[], partOf: (hash: string) => ReadPart) {
  const copy = structuredClone(value);
  for (const [path, hash] of refs) {
    const part = partOf(hash);
    let container: unknown = copy;
    for (const key of path.slice(0, -1)) container = (container as Record<string, unknown>)[key];
    place(
      container,
      path[path.length - 1] as string | number,
      filled(part.value, part.refs, partOf),
    );
  }
  return copy;
}

/**
 * A version's values as they were saved, from its skeleton, its refs and the parts it
 * reaches (`parts`, by hash). A missing part is a broken store, never a value to guess.
 */
export function decodeValues(
  skeleton: Record<string, unknown>,
  refs: readonly PartRef[],
  parts: ReadonlyMap<string, ReadPart>,
): Record<string, unknown> {
  const partOf = (hash: string) => {
    const part = parts.get(hash);
    if (!part) throw new Error(`a version names part ${hash}, which is not stored`);
    return part;
  };
  return filled(skeleton, refs, partOf) as Record<string, unknown>;
}
