import { type RawBuilder, sql } from 'kysely';
import type { EnvTrx } from '../../../db/environment-scope.ts';
import type { FieldRow } from '../../../db/schema.ts';
import { emptyValue, withEmptyValues } from '../../schema/field-types/index.ts';
import type { ValueHolders } from '../../schema/model-state.ts';
import { refreshRecords } from './refresh.ts';

const hasValidators = (field: Pick<FieldRow, 'validators'>) =>
  Object.keys(field.validators ?? {}).length > 0;

/**
 * A new field: existing records (current and published values) get its default value;
 * with validators, records its default breaks become invalid. Blocks of a block model get
 * its default too. `holders` says which of the two tables has rows of the model: a table
 * without any is left alone (a model's first fields usually come before its records).
 * A localized default takes each record's locales (those of its other localized values),
 * as a create's omitted fields do; a record with no localized value yet takes it whole.
 */
export async function fillNewField(
  trx: EnvTrx,
  field: Pick<
    FieldRow,
    'id' | 'item_type_id' | 'default_value' | 'validators' | 'field_type' | 'localized'
  >,
  holders: ValueHolders,
): Promise<void> {
  const fallback = JSON.stringify(emptyValue(field.field_type));
  const whole = JSON.stringify(withEmptyValues(field, field.default_value));
  const other = field.localized
    ? await trx
        .selectFrom('fields')
        .select('id')
        .where('item_type_id', '=', field.item_type_id)
        .where('localized', '=', true)
        .where('id', '!=', field.id)
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst()
    : undefined;
  // The default in the locales the value `column` holds for another localized field.
  const entryIn = (column: RawBuilder<unknown>) => {
    const value = other
      ? sql`CASE WHEN jsonb_typeof(${column} -> ${other.id}::text) = 'object'
          THEN coalesce((SELECT jsonb_object_agg(k, coalesce(${whole}::jsonb -> k, ${fallback}::jsonb))
                         FROM jsonb_object_keys(${column} -> ${other.id}::text) AS k), '{}'::jsonb)
          ELSE ${whole}::jsonb END`
      : sql`${whole}::jsonb`;
    return sql`jsonb_build_object(${field.id}::text, ${value})`;
  };
  if (holders.records) {
    await trx
      .updateTable('items')
      .set({
        item_values: sql`item_values || ${entryIn(sql.ref('item_values'))}`,
        published_values: sql`CASE WHEN published_values IS NULL THEN NULL ELSE published_values || ${entryIn(sql.ref('published_values'))} END`,
      })
      .where('item_type_id', '=', field.item_type_id)
      .execute();
  }
  if (holders.blocks) {
    await trx
      .updateTable('blocks')
      .set({ item_values: sql`item_values || ${entryIn(sql.ref('item_values'))}` })
      .where('item_type_id', '=', field.item_type_id)
      .execute();
  }
  if (holders.records && hasValidators(field)) await refreshRecords(trx, field.item_type_id);
}
