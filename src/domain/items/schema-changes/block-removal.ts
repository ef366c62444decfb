import type { EnvTrx } from '../../../db/environment-scope.ts';
import type { BlockRow } from '../../../db/schema.ts';
import { loadBlockSchema } from '../blocks/block-schema.ts';
import {
  type BlockHoldingField,
  blockRefsOf,
  holdsBlocks,
  withoutBlocks,
} from '../blocks/block-values.ts';
import { fieldsOfModels, type ItemField } from '../model-fields.ts';

// Schema changes that remove blocks: a destroyed field holding blocks, a destroyed block
// model, a locale a localized field no longer keeps (unlocalized, or dropped from the site).
// Blocks inside removed blocks go too; versions and published values keep their snapshots
// (they hold their blocks inline, never by a row of `blocks`).

type HoldingField = { id: string; item_type_id: string; field_type: string; localized: boolean };

/**
 * The ids of the stored blocks a field's value names (a stored value names blocks by id),
 * leaving out those of the locales in `keepLocales` when given (localized fields).
 */
export function blockIdsHeld(
  field: HoldingField,
  value: unknown,
  keepLocales?: readonly string[],
): string[] {
  if (!holdsBlocks(field)) return [];
  const holding: BlockHoldingField = { ...field, api_key: field.id };
  return blockRefsOf(holding, value)
    .filter(
      ({ ref, place }) => typeof ref === 'string' && !keepLocales?.includes(place[0] as string),
    )
    .map(({ ref }) => ref as string);
}

/**
 * Deletes the blocks a field's values hold, in every record (or block) of its model, and the
 * blocks inside them: run before a field holding blocks is destroyed, or (with `keepLocales`)
 * before a localized one keeps only its main locale's value.
 */
export async function deleteBlocksHeldBy(
  trx: EnvTrx,
  field: HoldingField,
  keepLocales?: readonly string[],
): Promise<void> {
  if (!holdsBlocks(field)) return;
  const [records, blocks] = await Promise.all([
    trx
      .selectFrom('items')
      .select('item_values')
      .where('item_type_id', '=', field.item_type_id)
      .execute(),
    trx
      .selectFrom('blocks')
      .select('item_values')
      .where('item_type_id', '=', field.item_type_id)
      .execute(),
  ]);
  const ids = [...records, ...blocks].flatMap((row) =>
    blockIdsHeld(field, row.item_values[field.id], keepLocales),
  );
  await deleteBlocksAndInner(trx, ids);
}

function refIdsIn(holders: readonly BlockHoldingField[], values: Record<string, unknown>) {
  return holders.flatMap((held) =>
    blockRefsOf(held, values[held.id])
      .map(({ ref }) => ref)
      .filter((ref): ref is string => typeof ref === 'string'),
  );
}

/** Deletes these blocks and, level by level, the blocks inside them; answers what went. */
export async function deleteBlocksAndInner(trx: EnvTrx, first: string[]): Promise<BlockRow[]> {
  const deleted: BlockRow[] = [];
  const schema = first.length > 0 ? await loadBlockSchema(trx) : new Map();
  let ids = first;
  while (ids.length > 0) {
    const rows = await trx.deleteFrom('blocks').where('id', 'in', ids).returningAll().execute();
    deleted.push(...rows);
    ids = rows.flatMap((row) =>
      refIdsIn(schema.get(row.item_type_id)?.fields ?? [], row.item_values),
    );
  }
  return deleted;
}

/**
 * A block model's destroy: its blocks (and the blocks inside them) are deleted, and the
 * records and blocks that named them stop naming them. (Published values and versions keep
 * their snapshots.) Run before the model's row goes, while its blocks can still be read.
 */
export async function dropBlocksOfModel(trx: EnvTrx, blockModelId: string): Promise<void> {
  const own = await trx
    .selectFrom('blocks')
    .select('id')
    .where('item_type_id', '=', blockModelId)
    .execute();
  const deleted = await deleteBlocksAndInner(
    trx,
    own.map((row) => row.id),
  );
  if (deleted.length === 0) return;
  const gone = new Set(deleted.map((row) => row.id));
  const itemIds = [...new Set(deleted.map((row) => row.item_id))];
  const schema = await loadBlockSchema(trx);
  const cleaned = (fields: readonly ItemField[], values: Record<string, unknown>) => {
    const out = { ...values };
    for (const field of fields)
      if (holdsBlocks(field)) out[field.id] = withoutBlocks(field, values[field.id] ?? null, gone);
    return JSON.stringify(out);
  };
  const records = await trx.selectFrom('items').selectAll().where('id', 'in', itemIds).execute();
  const fieldsByModel = await fieldsOfModels(
    trx,
    records.map((row) => row.item_type_id),
  );
  for (const record of records)
    await trx
      .updateTable('items')
      .set({
        item_values: cleaned(fieldsByModel.get(record.item_type_id) ?? [], record.item_values),
      })
      .where('id', '=', record.id)
      .execute();
  const holders = await trx
    .selectFrom('blocks')
    .selectAll()
    .where('item_id', 'in', itemIds)
    .execute();
  for (const block of holders)
    await trx
      .updateTable('blocks')
      .set({
        item_values: cleaned(schema.get(block.item_type_id)?.fields ?? [], block.item_values),
      })
      .where('id', '=', block.id)
      .execute();
}
