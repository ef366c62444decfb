import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { ItemRow, ItemTypeRow } from '../../db/schema.ts';
import { presentItem } from '../../presenters/item.ts';
import { holdsBlocks } from '../../presenters/item-blocks.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import { valuesToPresent } from './block-snapshots.ts';
import type { ItemField } from './model-fields.ts';

/**
 * A record as its event carries it: with its blocks by id, and, when its model holds
 * blocks, also with them whole (for webhooks with nested_items_in_payload).
 */
export type EventEntity = { plain: Resource; nested?: Resource };

/**
 * The record's event entity as its blocks are now: the caller reads it before a change
 * replaces or deletes them (a previous entity, a deleted record). No read without blocks.
 */
export async function eventEntity(
  db: EnvQueryable,
  row: Omit<ItemRow, 'seq'>,
  model: Pick<ItemTypeRow, 'sortable' | 'tree'>,
  fields: readonly ItemField[],
): Promise<EventEntity> {
  const plain = presentItem(row, model, fields);
  if (!fields.some(holdsBlocks)) return { plain };
  const [values] = await valuesToPresent(db, [{ ...row, fields }], {
    published: false,
    nested: true,
  });
  return { plain, nested: presentItem(row, model, fields, values) };
}
