import type { EnvTrx } from '../../../db/environment-scope.ts';
import type { ItemRow } from '../../../db/schema.ts';
import { BlockSession } from '../blocks/blocks.ts';
import { checkItemValues, type ValuesToCheck } from '../values.ts';
import {
  insertParts,
  type StoredVersionValues,
  storedVersionValues,
} from '../versions/version-store.ts';

/**
 * A create's or update's values, checked (blocks sent inline resolved through the record's
 * block session) and in the shapes they are stored: the current values (blocks by id), and
 * the snapshot that versions and published values hold (blocks inline, migration 0007),
 * each serialised once for the statement that writes the row and its version.
 */
export async function checkedValues(
  trx: EnvTrx,
  input: Omit<ValuesToCheck, 'blocks'>,
  unknownKeys: readonly string[],
) {
  const blocks = await BlockSession.open(trx, input.itemId, input.fields, input.locales);
  const values = await checkItemValues(trx, { ...input, blocks }, unknownKeys);
  const snapshot = blocks ? blocks.snapshot(input.fields, values) : values;
  const json = JSON.stringify(values);
  return { blocks, values, snapshot, json, snapshotJson: blocks ? JSON.stringify(snapshot) : json };
}

/** The version row a write inserts, its values stored compactly (version-store.ts). */
function versionRow(
  row: Pick<ItemRow, 'id' | 'item_type_id' | 'current_version_id'>,
  stored: StoredVersionValues,
  editorId: string | null,
) {
  return {
    id: row.current_version_id,
    item_id: row.id,
    item_type_id: row.item_type_id,
    editor_id: editorId,
    item_values: stored.item_values,
    value_refs: stored.value_refs,
    part_hashes: stored.part_hashes,
  };
}

/** A save's version and the parts of its values the record does not have yet. */
export function versionWrites(
  trx: EnvTrx,
  row: Pick<ItemRow, 'id' | 'item_type_id' | 'current_version_id'>,
  snapshot: Record<string, unknown>,
  editorId: string | null,
) {
  const stored = storedVersionValues(snapshot);
  const parts = insertParts(trx, row.id, stored);
  return { version: versionRow(row, stored, editorId), parts: parts ? [parts] : [] };
}
