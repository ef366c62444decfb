import type { EnvQueryable } from '../../../db/environment-scope.ts';
import type { BlockRow, ItemRow } from '../../../db/schema.ts';
import { MAX_NESTING_DEPTH } from '../../limits.ts';
import type { ItemField } from '../model-fields.ts';
import {
  type BlockSchema,
  blockModelFields,
  blocksOf,
  byApiKey,
  loadBlockSchema,
} from './block-schema.ts';
import {
  type BlockNode,
  blockIdValues,
  holdsBlocks,
  isBlockNode,
  mapValues,
  type NestedContext,
} from './block-values.ts';

// Snapshots: values with their blocks inline (BlockNode), as versions and published values
// hold them, built from stored blocks for `?nested=true` reads and publishing, and turned
// back into a request to restore a version.

type NodeOf = (id: string) => BlockNode | undefined;

/**
 * Values with each block id replaced by its block inline (recursively). `depth`: the level
 * of the values' holder (0: the record). Writes refuse content deeper than
 * MAX_NESTING_DEPTH; blocks stored past it before the limit existed stay ids, so the walk
 * never goes further.
 */
export function snapshotValues(
  fields: readonly ItemField[],
  values: Record<string, unknown>,
  schema: BlockSchema,
  nodeOf: NodeOf,
  depth = 0,
): Record<string, unknown> {
  return mapValues(fields, values, (ref, _place, level) => {
    const at = depth + level;
    const node = typeof ref === 'string' && at <= MAX_NESTING_DEPTH ? nodeOf(ref) : undefined;
    if (!node) return ref;
    const inner = schema.get(node.item_type_id)?.fields ?? [];
    return { ...node, values: snapshotValues(inner, node.values, schema, nodeOf, at) };
  });
}

export function nodeFromRow(row: BlockRow): BlockNode {
  return {
    id: row.id,
    item_type_id: row.item_type_id,
    values: row.item_values,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Snapshots of records' current values (blocks inline), for `?nested=true`, publishing and
 * events: one query for the blocks of all of them.
 */
export async function currentSnapshots(
  db: EnvQueryable,
  records: readonly { id: string; values: Record<string, unknown>; fields: readonly ItemField[] }[],
  schema?: BlockSchema,
): Promise<{ snapshots: Record<string, unknown>[]; schema: BlockSchema }> {
  const holding = records.filter((record) => record.fields.some(holdsBlocks));
  const blockSchema = schema ?? (holding.length > 0 ? await loadBlockSchema(db) : new Map());
  const rows = await blocksOf(
    db,
    holding.map((record) => record.id),
  );
  const nodeOf: NodeOf = (id) => {
    const row = rows.get(id);
    return row ? nodeFromRow(row) : undefined;
  };
  return {
    snapshots: records.map((record) =>
      snapshotValues(record.fields, record.values, blockSchema, nodeOf),
    ),
    schema: blockSchema,
  };
}

/**
 * A snapshot's values as an update request (by api_key), for restoring a version: a block
 * the record still has is updated in place, one it lost is created anew, so the restored
 * record never names a deleted block.
 */
export async function snapshotAsRequest(
  db: EnvQueryable,
  itemId: string,
  fields: readonly ItemField[],
  snapshot: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const holding = fields.some(holdsBlocks);
  const [schema, stored] = holding
    ? await Promise.all([loadBlockSchema(db), blocksOf(db, [itemId])])
    : [new Map() as BlockSchema, new Map<string, BlockRow>()];
  // A block past MAX_NESTING_DEPTH (only a version saved before the limit existed holds
  // one) is given by id: the walk stops there, and the restore's own check refuses it.
  const asRequest = (
    holder: readonly ItemField[],
    values: Record<string, unknown>,
    depth: number,
  ): Record<string, unknown> =>
    byApiKey(
      holder,
      mapValues(holder, values, (node, _place, level) => {
        if (!isBlockNode(node)) return node;
        const at = depth + level;
        if (at > MAX_NESTING_DEPTH) return node.id;
        const inner = schema.get(node.item_type_id)?.fields ?? [];
        return {
          type: 'item',
          ...(stored.has(node.id) ? { id: node.id } : {}),
          attributes: asRequest(inner, node.values, at),
          relationships: { item_type: { data: { type: 'item_type', id: node.item_type_id } } },
        };
      }),
    );
  return asRequest(fields, snapshot, 0);
}

/** How a read presents values: the current or published version, blocks by id or whole. */
export type ValuesRead = { published: boolean; nested: boolean };

/** Values to show (by field id); with `blocks`, they hold their blocks inline, shown whole. */
export type ShownValues = { values: Record<string, unknown>; blocks?: NestedContext };

/**
 * The values to show for each record (by field id): blocks by id by default, inline to be
 * shown whole with `nested` (DatoCMS's `?nested=true`), from the published snapshot when
 * asked.
 */
export async function valuesToShow(
  db: EnvQueryable,
  records: readonly (Pick<
    ItemRow,
    'id' | 'item_values' | 'published_values' | 'current_version_id' | 'published_version_id'
  > & { fields: readonly ItemField[] })[],
  read: ValuesRead,
): Promise<ShownValues[]> {
  if (!read.nested)
    return records.map((record) => ({
      values: read.published
        ? blockIdValues(record.fields, record.published_values ?? {})
        : record.item_values,
    }));
  const { snapshots, schema } = read.published
    ? {
        snapshots: records.map((record) => record.published_values ?? {}),
        schema: await loadBlockSchema(db),
      }
    : await currentSnapshots(
        db,
        records.map((record) => ({
          id: record.id,
          values: record.item_values,
          fields: record.fields,
        })),
      );
  const blockFields = blockModelFields(schema);
  return records.map((record, index) => ({
    values: snapshots[index] ?? {},
    blocks: {
      blockFields,
      version: (read.published ? record.published_version_id : null) ?? record.current_version_id,
    },
  }));
}
