import { type RawBuilder, sql } from 'kysely';
import type { EnvTrx } from '../../db/environment-scope.ts';
import type { FieldRow } from '../../db/schema.ts';
import { deleteBlocksHeldBy } from './block-removal.ts';

/**
 * Schema changes reaching records (spec 09 §3), each run in the schema change's own
 * transaction. Values are keyed by field id, so these touch one key of each record of the
 * model, or of each block of a block model (blocks hold values like records, migration 0005;
 * each change runs on both tables, and the one without rows of the model is left as it is).
 * Versions keep what was saved. (A model's destroy removes its records, and a block model's
 * its blocks, through the tables' foreign keys.)
 */

/** A new field: existing records (current and published values) get its default value. */
export async function fillNewField(
  trx: EnvTrx,
  field: Pick<FieldRow, 'id' | 'item_type_id' | 'default_value'>,
): Promise<void> {
  const entry = sql`jsonb_build_object(${field.id}::text, ${JSON.stringify(field.default_value ?? null)}::jsonb)`;
  await trx
    .updateTable('items')
    .set({
      item_values: sql`item_values || ${entry}`,
      published_values: sql`CASE WHEN published_values IS NULL THEN NULL ELSE published_values || ${entry} END`,
    })
    .where('item_type_id', '=', field.item_type_id)
    .execute();
  await trx
    .updateTable('blocks')
    .set({ item_values: sql`item_values || ${entry}` })
    .where('item_type_id', '=', field.item_type_id)
    .execute();
}

/** A destroyed field: its values (and the blocks they held) leave every record of the model. */
export async function dropFieldValues(
  trx: EnvTrx,
  field: Pick<FieldRow, 'id' | 'item_type_id' | 'field_type' | 'localized'>,
): Promise<void> {
  await deleteBlocksHeldBy(trx, field);
  await trx
    .updateTable('blocks')
    .set({ item_values: sql`item_values - ${field.id}::text` })
    .where('item_type_id', '=', field.item_type_id)
    .execute();
  await trx
    .updateTable('items')
    .set({
      item_values: sql`item_values - ${field.id}::text`,
      published_values: sql`published_values - ${field.id}::text`,
    })
    .where('item_type_id', '=', field.item_type_id)
    .execute();
}

/**
 * A field's `localized` switched: a value becomes the main locale's value of the new
 * localized value, or the main locale's value becomes the value (the blocks of the other
 * locales' values are deleted). (field_type changes do not convert stored values yet.)
 */
export async function convertLocalization(
  trx: EnvTrx,
  field: Pick<FieldRow, 'id' | 'item_type_id' | 'localized' | 'field_type'>,
  mainLocale: string,
): Promise<void> {
  if (!field.localized) await deleteBlocksHeldBy(trx, { ...field, localized: true }, mainLocale);
  const path = sql`ARRAY[${field.id}::text]`;
  const convert = (column: 'item_values' | 'published_values'): RawBuilder<string> =>
    field.localized
      ? sql`jsonb_set(${sql.ref(column)}, ${path}, jsonb_build_object(${mainLocale}::text, coalesce(${sql.ref(column)} -> ${field.id}::text, 'null'::jsonb)))`
      : sql`jsonb_set(${sql.ref(column)}, ${path}, coalesce(${sql.ref(column)} -> ${field.id}::text -> ${mainLocale}::text, 'null'::jsonb))`;
  await trx
    .updateTable('items')
    .set({ item_values: convert('item_values'), published_values: convert('published_values') })
    .where('item_type_id', '=', field.item_type_id)
    .execute();
  await trx
    .updateTable('blocks')
    .set({ item_values: convert('item_values') })
    .where('item_type_id', '=', field.item_type_id)
    .execute();
}
