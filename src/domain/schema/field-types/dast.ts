import { isValidId } from '../../ids.ts';
import { MAX_NESTING_DEPTH } from '../../limits.ts';
import { blockRefProblem, type ValueReferences } from './block-refs.ts';
import { isPlainObject } from './problems.ts';

/**
 * The grammar of a structured text value (DatoCMS "Structured Text and `dast` format"):
 * `{schema: "dast", document: {type: "root", children: […]}}`, each node type with its own
 * attributes and allowed children. Structural facts follow the dast specification and the
 * official `datocms-structured-text-utils` definitions (which DatoCMS uses to validate).
 */

type NodeSpec = {
  /** Attributes besides `type` (and `children`, governed by `children`). */
  attributes: Readonly<Record<string, (value: unknown) => string | null>>;
  /** Required attributes among `attributes`. */
  required?: readonly string[];
  /** Allowed child node types; absent = a leaf (no `children`). */
  children?: readonly string[];
};

const INLINE = ['span', 'link', 'itemLink', 'inlineItem', 'inlineBlock'];

const optionalString = (v: unknown) => (typeof v === 'string' ? null : 'must be a string');

const recordId = (v: unknown) =>
  typeof v === 'string' && isValidId(v) ? null : 'must be a record id';

const meta = (v: unknown) =>
  Array.isArray(v) &&
  v.every(
    (entry) =>
      isPlainObject(entry) && typeof entry.id === 'string' && typeof entry.value === 'string',
  )
    ? null
    : 'must be an array of {id, value} strings';

const NODES: Readonly<Record<string, NodeSpec>> = {
  root: {
    attributes: {},
    children: ['paragraph', 'heading', 'list', 'code', 'blockquote', 'block', 'thematicBreak'],
  },
  paragraph: { attributes: { style: optionalString }, children: INLINE },
  heading: {
    attributes: {
      level: (v) =>
        Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 6
          ? null
          : 'must be an integer from 1 to 6',
      style: optionalString,
    },
    required: ['level'],
    children: INLINE,
  },
  list: {
    attributes: {
      style: (v) =>
        v === 'bulleted' || v === 'numbered' ? null : 'must be "bulleted" or "numbered"',
    },
    required: ['style'],
    children: ['listItem'],
  },
  listItem: { attributes: {}, children: ['paragraph', 'list'] },
  blockquote: { attributes: { attribution: optionalString }, children: ['paragraph'] },
  code: {
    attributes: {
      code: optionalString,
      language: optionalString,
      highlight: (v) =>
        Array.isArray(v) && v.every((line) => Number.isInteger(line) && line >= 0)
          ? null
          : 'must be an array of line numbers',
    },
    required: ['code'],
  },
  thematicBreak: { attributes: {} },
  block: { attributes: { item: blockRefProblem }, required: ['item'] },
  inlineBlock: { attributes: { item: blockRefProblem }, required: ['item'] },
  span: {
    attributes: {
      value: optionalString,
      marks: (v) =>
        Array.isArray(v) && v.every((mark) => typeof mark === 'string' && mark !== '')
          ? null
          : 'must be an array of mark names',
    },
    required: ['value'],
  },
  link: {
    attributes: { url: optionalString, meta },
    required: ['url'],
    children: INLINE,
  },
  itemLink: {
    attributes: { item: recordId, meta },
    required: ['item'],
    children: INLINE,
  },
  inlineItem: { attributes: { item: recordId }, required: ['item'] },
};

function nodeProblem(
  node: unknown,
  path: string,
  depth: number,
  refs: ValueReferences,
): string | null {
  if (depth > MAX_NESTING_DEPTH)
    return `${path}: the document nests deeper than ${MAX_NESTING_DEPTH} levels`;
  if (!isPlainObject(node) || typeof node.type !== 'string')
    return `${path}: a node must be an object with a "type"`;
  const spec = Object.hasOwn(NODES, node.type) ? NODES[node.type] : undefined;
  if (!spec) return `${path}: unknown node type ${JSON.stringify(node.type)}`;
  const here = `${path} (${node.type})`;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || (key === 'children' && spec.children)) continue;
    const check = Object.hasOwn(spec.attributes, key) ? spec.attributes[key] : undefined;
    if (!check) return `${here}: "${key}" is not an attribute of ${node.type} nodes`;
    const problem = check(value);
    if (problem) return `${here}: "${key}" ${problem}`;
  }
  for (const key of spec.required ?? []) {
    if (node[key] === undefined) return `${here}: "${key}" is required`;
  }
  collect(node, refs);
  if (!spec.children) return null;
  const children = node.children;
  if (!Array.isArray(children) || children.length === 0)
    return `${here}: "children" must be a non-empty array`;
  for (const [index, child] of children.entries()) {
    const childPath = `${path}.children[${index}]`;
    const type = isPlainObject(child) ? child.type : undefined;
    if (typeof type === 'string' && Object.hasOwn(NODES, type) && !spec.children.includes(type))
      return `${childPath}: a ${node.type} node cannot contain a ${type} node (allowed: ${spec.children.join(', ')})`;
    const problem = nodeProblem(child, childPath, depth + 1, refs);
    if (problem) return problem;
  }
  return null;
}

function collect(node: Record<string, unknown>, refs: ValueReferences): void {
  const item = node.item as string | Record<string, unknown>;
  if (node.type === 'block') refs.blocks.push(item);
  else if (node.type === 'inlineBlock') refs.inlineBlocks.push(item);
  else if (node.type === 'itemLink' || node.type === 'inlineItem')
    refs.records.push(item as string);
}

/**
 * What is wrong with a non-null structured text value, or null when it is a valid dast
 * document. Block, inline block and record references are added to `refs`.
 */
export function dastProblem(value: unknown, refs: ValueReferences): string | null {
  if (!isPlainObject(value) || value.schema !== 'dast' || !isPlainObject(value.document))
    return 'must be a dast document {schema: "dast", document: {type: "root", children: […]}}';
  const extra = Object.keys(value).filter((key) => key !== 'schema' && key !== 'document');
  if (extra.length > 0)
    return `unknown keys ${JSON.stringify(extra)} next to "schema" and "document"`;
  if (value.document.type !== 'root') return 'document: the top node must be of type "root"';
  return nodeProblem(value.document, 'document', 0, refs);
}

/** The characters of a (valid) dast document's text: spans and code, for the length validator. */
export function dastTextLength(value: unknown): number {
  let length = 0;
  const walk = (node: unknown): void => {
    if (!isPlainObject(node)) return;
    if (node.type === 'span' && typeof node.value === 'string') length += [...node.value].length;
    if (node.type === 'code' && typeof node.code === 'string') length += [...node.code].length;
    if (Array.isArray(node.children)) node.children.forEach(walk);
  };
  if (isPlainObject(value)) walk(value.document);
  return length;
}
