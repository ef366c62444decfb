import { sql } from 'kysely';
import type { EnvTrx } from '../../../db/environment-scope.ts';
import { withWrites } from '../../../db/query/carried-writes.ts';
import { executePrepared } from '../../../db/query/prepared.ts';
import type { EnvironmentDatabase, FieldRow } from '../../../db/schema.ts';
import { deleteBlocksHeldBy } from './block-removal.ts';
import { invalidRecordsOf, refreshRecords } from './refresh.ts';

/**
 * A destroyed field: its values (and the blocks they held) leave every record of the model,
 * which may make some valid.
 */
export async function dropFieldValues(
  trx: EnvTrx,
  field: Pick<FieldRow, 'id' | 'item_type_id' | 'field_type' | 'localized'>,
): Promise<void> {
  await deleteBlocksHeldBy(trx, field);
  const fromBlocks = trx
    .updateTable('blocks')
    .set({ item_values: sql`item_values - ${field.id}::text` })
    .where('item_type_id', '=', field.item_type_id);
  const fromRecords = trx
    .updateTable('items')
    .set({
      item_values: sql`item_values - ${field.id}::text`,
      published_values: sql`published_values - ${field.id}::text`,
    })
    .where('item_type_id', '=', field.item_type_id);
  // One statement removes the values and asks whether a record of the model was invalid:
  // it reads the records as they were before its writes, and removing a value changes no
  // record's validity flags. Those records are checked again against what is left.
  const [found] = await executePrepared(
    trx,
    withWrites<EnvironmentDatabase>(trx, [fromBlocks, fromRecords]).selectNoFrom((eb) =>
      eb.exists(invalidRecordsOf(trx, field.item_type_id)).as('invalid'),
    ),
  );
  if (found?.invalid) await refreshRecords(trx, field.item_type_id);
}
