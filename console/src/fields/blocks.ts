/**
 * Blocks as the record editor holds them: the raw JSON:API shape the CMA returns with
 * `nested=true` and accepts back (with an id: that block, updated; without: a new one).
 */
export type Block = {
  type: 'item';
  id?: string;
  attributes: Record<string, unknown>;
  relationships: { item_type: { data: { type: 'item_type'; id: string } } };
};

export function newBlock(modelId: string): Block {
  return {
    type: 'item',
    attributes: {},
    relationships: { item_type: { data: { type: 'item_type', id: modelId } } },
  };
}

export function isBlock(value: unknown): value is Block {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Block).type === 'item' &&
    typeof (value as Block).attributes === 'object'
  );
}

/** What the API takes back: the block without its read-only meta. */
export function blockForRequest(block: Block): Block {
  const { type, id, attributes, relationships } = block;
  return { type, ...(id ? { id } : {}), attributes, relationships };
}
