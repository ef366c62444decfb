import { isValidId } from '../../ids.ts';
import { isPlainObject } from './problems.ts';

/**
 * A block as a record value names it: the id of an existing block, or a block object in a
 * request (created or updated inline, `buildBlockRecord`). Its attributes are checked by the
 * records service against the block model's own fields; here only the envelope is checked.
 */
export type BlockRef = string | Record<string, unknown>;

/**
 * An upload a value names: a file value or gallery entry (with its own alt and title,
 * which `required_alt_title` judges), or an SEO value's `image` (which has none).
 */
export type UploadMention = {
  upload_id: string;
  alt?: string | null;
  title?: string | null;
};

/** What a record value points at, for the checks that need the database. */
export type ValueReferences = {
  /** Records named by link, links, and structured text `itemLink` / `inlineItem` nodes. */
  records: string[];
  /** Blocks of rich_text and single_block values, and structured text `block` nodes. */
  blocks: BlockRef[];
  /** Structured text `inlineBlock` nodes. */
  inlineBlocks: BlockRef[];
  /** Uploads named by file, gallery and seo (`image`) values. */
  uploads: UploadMention[];
};

export function noReferences(): ValueReferences {
  return { records: [], blocks: [], inlineBlocks: [], uploads: [] };
}

const BLOCK_KEYS = ['type', 'id', 'attributes', 'relationships', 'meta', '__itemTypeId'];

function itemTypeIdOf(relationships: unknown): unknown {
  if (!isPlainObject(relationships) || !isPlainObject(relationships.item_type)) return undefined;
  const data = relationships.item_type.data;
  return isPlainObject(data) && data.type === 'item_type' ? data.id : undefined;
}

/**
 * What is wrong with a block reference, or null. A new block (no id) must name its model in
 * `relationships.item_type`; an updated one may leave it out (the client's
 * `isBlockObjectInRequest`: `type: "item"` and `attributes`).
 */
export function blockRefProblem(block: unknown): string | null {
  if (typeof block === 'string')
    return isValidId(block) ? null : `block id ${JSON.stringify(block)} is not a valid id`;
  if (!isPlainObject(block) || block.type !== 'item')
    return 'a block must be a block id or a block object {type: "item", attributes, relationships}';
  const unknown = Object.keys(block).filter((key) => !BLOCK_KEYS.includes(key));
  if (unknown.length > 0) return `a block object has unknown keys ${JSON.stringify(unknown)}`;
  if (!isPlainObject(block.attributes)) return 'a block object needs an "attributes" object';
  if (block.id !== undefined && (typeof block.id !== 'string' || !isValidId(block.id)))
    return `block id ${JSON.stringify(block.id)} is not a valid id`;
  const itemTypeId = itemTypeIdOf(block.relationships);
  if (block.relationships !== undefined && itemTypeId === undefined)
    return 'a block object\'s "relationships" must be {item_type: {data: {type: "item_type", id}}}';
  if (block.id === undefined && itemTypeId === undefined)
    return 'a new block object must name its block model in relationships.item_type';
  if (itemTypeId !== undefined && (typeof itemTypeId !== 'string' || !isValidId(itemTypeId)))
    return `block model id ${JSON.stringify(itemTypeId)} is not a valid id`;
  return null;
}
