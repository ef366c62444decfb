import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { ItemRow, ItemTypeRow } from '../../db/schema.ts';
import { type BlockSchema, blockModelFields } from './blocks/block-schema.ts';
import { currentSnapshots } from './blocks/block-snapshots.ts';
import { holdsBlocks } from './blocks/block-values.ts';
import type { ItemField } from './model-fields.ts';
import { type RecordView, recordView } from './record-view.ts';

/**
 * A record as its event carries it: with its blocks by id, and, when its model holds
 * blocks, also with them whole (for webhooks with nested_items_in_payload).
 */
export type EventEntity = { plain: RecordView; nested?: RecordView };

type EventRow = Omit<ItemRow, 'seq'>;
type EventModel = Pick<ItemTypeRow, 'sortable' | 'tree'>;

/** A record's values with their blocks inline, and the block models to present them. */
export type EventSnapshot = { values: Record<string, unknown>; schema: BlockSchema };

/**
 * The event entity from the record's snapshot (its values with blocks inline), which a
 * write holds already: no read. Without a snapshot the model holds no blocks.
 */
export function eventEntityOf(
  row: EventRow,
  model: EventModel,
  fields: readonly ItemField[],
  snapshot?: EventSnapshot,
): EventEntity {
  const plain = recordView(row, model, fields);
  if (!snapshot) return { plain };
  const blocks = {
    blockFields: blockModelFields(snapshot.schema),
    version: row.current_version_id,
  };
  return { plain, nested: recordView(row, model, fields, snapshot.values, blocks) };
}

/**
 * The record's snapshot as its stored blocks are now (read before a change deletes them);
 * undefined, with no read, when its model holds no blocks.
 */
export async function storedSnapshot(
  db: EnvQueryable,
  row: Pick<ItemRow, 'id' | 'item_values'>,
  fields: readonly ItemField[],
): Promise<EventSnapshot | undefined> {
  if (!fields.some(holdsBlocks)) return undefined;
  const { snapshots, schema } = await currentSnapshots(db, [
    { id: row.id, values: row.item_values, fields },
  ]);
  return { values: snapshots[0] ?? {}, schema };
}
