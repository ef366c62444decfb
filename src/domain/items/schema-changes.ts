import { type RawBuilder, sql } from 'kysely';
import type { EnvTrx } from '../../db/environment-scope.ts';
import type { FieldRow } from '../../db/schema.ts';
import { convertValue, type FieldType } from '../fields/field-types/index.ts';
import { isPlainObject } from '../fields/field-types/problems.ts';

/**
 * Schema changes reaching records (spec 09 §3), each run in the schema change's own
 * transaction. Values are keyed by field id, so these touch one key of each record of the
 * model. Versions keep what was saved. (A model's destroy removes its records through the
 * items table's foreign key.)
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
}

/** A destroyed field: its values leave every record of the model. */
export async function dropFieldValues(
  trx: EnvTrx,
  field: Pick<FieldRow, 'id' | 'item_type_id'>,
): Promise<void> {
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
 * localized value, or the main locale's value becomes the value.
 */
export async function convertLocalization(
  trx: EnvTrx,
  field: Pick<FieldRow, 'id' | 'item_type_id' | 'localized'>,
  mainLocale: string,
): Promise<void> {
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
}

type StoredValues = Record<string, unknown>;

/**
 * Rewrites the current and published values of every record of a model in JavaScript, for
 * changes SQL cannot express simply; only records whose values change are written.
 */
async function rewriteRecords(
  trx: EnvTrx,
  itemTypeId: string,
  rewrite: (values: StoredValues) => StoredValues,
): Promise<void> {
  const rows = await trx
    .selectFrom('items')
    .select(['id', 'item_values', 'published_values'])
    .where('item_type_id', '=', itemTypeId)
    .execute();
  for (const row of rows) {
    const current = rewrite(row.item_values);
    const published = row.published_values === null ? null : rewrite(row.published_values);
    const unchanged =
      JSON.stringify(current) === JSON.stringify(row.item_values) &&
      JSON.stringify(published) === JSON.stringify(row.published_values);
    if (unchanged) continue;
    await trx
      .updateTable('items')
      .set({
        item_values: JSON.stringify(current),
        published_values: published === null ? null : JSON.stringify(published),
      })
      .where('id', '=', row.id)
      .execute();
  }
}

/**
 * A field's `field_type` changed (an allowed conversion, spec 02 §9): every record's
 * value converts, per locale when localized (`localized` as stored before the change).
 */
export async function convertFieldValues(
  trx: EnvTrx,
  field: Pick<FieldRow, 'id' | 'item_type_id' | 'localized'>,
  from: FieldType,
  to: FieldType,
): Promise<void> {
  const convert = (value: unknown) => convertValue(from, to, value);
  await rewriteRecords(trx, field.item_type_id, (values) => {
    if (!Object.hasOwn(values, field.id)) return values;
    const value = values[field.id];
    const converted =
      field.localized && isPlainObject(value)
        ? Object.fromEntries(Object.entries(value).map(([locale, v]) => [locale, convert(v)]))
        : field.localized
          ? value
          : convert(value);
    return { ...values, [field.id]: converted };
  });
}

/**
 * The site's locales changed: every localized value keeps the locales still in the site
 * and drops the others. A record is in the main locale, and in every locale when its
 * model has `all_locales_required`: those locales get a key (null: a new locale's default
 * is null) when the value lacks it. Other records stay out of a new locale, as records
 * saved in some locales only do.
 */
export async function reshapeRecordLocales(trx: EnvTrx, locales: readonly string[]): Promise<void> {
  const fields = await trx
    .selectFrom('fields')
    .innerJoin('item_types', 'item_types.id', 'fields.item_type_id')
    .select(['fields.id', 'fields.item_type_id', 'item_types.all_locales_required'])
    .where('fields.localized', '=', true)
    .execute();
  const byModel = new Map<string, { ids: string[]; allLocales: boolean }>();
  for (const field of fields) {
    const model = byModel.get(field.item_type_id) ?? {
      ids: [],
      allLocales: field.all_locales_required,
    };
    model.ids.push(field.id);
    byModel.set(field.item_type_id, model);
  }
  for (const [itemTypeId, model] of byModel) {
    const reshape = (value: unknown) => {
      const byLocale = isPlainObject(value) ? value : {};
      return Object.fromEntries(
        locales
          .filter(
            (locale, index) => model.allLocales || index === 0 || Object.hasOwn(byLocale, locale),
          )
          .map((locale) => [locale, byLocale[locale] ?? null]),
      );
    };
    await rewriteRecords(trx, itemTypeId, (values) => ({
      ...values,
      ...Object.fromEntries(model.ids.map((id) => [id, reshape(values[id])])),
    }));
  }
}
