import { type RawBuilder, sql } from 'kysely';
import type { EnvTrx } from '../../../db/environment-scope.ts';
import { withWrites } from '../../../db/query/carried-writes.ts';
import { executePrepared } from '../../../db/query/prepared.ts';
import type { EnvironmentDatabase, FieldRow } from '../../../db/schema.ts';
import {
  convertValue,
  emptyValue,
  type FieldType,
  orEmpty,
  withEmptyValues,
} from '../../schema/field-types/index.ts';
import { isPlainObject } from '../../schema/field-types/problems.ts';
import { siteLocales } from '../../schema/locales.ts';
import type { ValueHolders } from '../../schema/model-state.ts';
import { blockIdsHeld, deleteBlocksAndInner, deleteBlocksHeldBy } from './block-removal.ts';
import { invalidRecordsOf, refreshRecords, type StoredValues } from './refresh.ts';

/**
 * Schema changes reaching records, each run in the schema change's own
 * transaction. Values are keyed by field id, so these touch one key of each record of the
 * model, or of each block of a block model (blocks hold values like records, migration 0007;
 * each change runs on both tables, and the one without rows of the model is left as it is).
 * Versions keep what was saved. (A model's destroy removes its records, and a block model's
 * its blocks, through the tables' foreign keys.)
 */

type FieldChange = Pick<
  FieldRow,
  'id' | 'item_type_id' | 'field_type' | 'localized' | 'validators'
>;

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

/** One field's value rewritten: per locale when localized, as a whole otherwise. */
function eachValue(localized: boolean, value: unknown, convert: (v: unknown) => unknown) {
  if (!localized) return convert(value);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([locale, v]) => [locale, convert(v)]));
}

/** Whether an update of a field touches its records and blocks (followFieldUpdate). */
export function reachesValues(before: FieldChange, after: FieldChange): boolean {
  return (
    after.field_type !== before.field_type ||
    after.localized !== before.localized ||
    JSON.stringify(after.validators) !== JSON.stringify(before.validators)
  );
}

/**
 * An updated field. A `field_type` change converts every record's value
 * (per locale when localized), then a `localized` switch makes a value the main locale's
 * value of the new localized value, or keeps the main locale's value (the blocks of the
 * other locales' values are deleted). Any change of type, localization or validators
 * recomputes the records' validity. Blocks of a block model follow its fields the same way.
 */
export async function followFieldUpdate(
  trx: EnvTrx,
  before: FieldChange,
  after: FieldChange,
): Promise<void> {
  if (!reachesValues(before, after)) return;
  const typeChanged = after.field_type !== before.field_type;
  const localizedChanged = after.localized !== before.localized;
  const siteOrder = localizedChanged ? await siteLocales(trx) : [];
  const mainLocale = siteOrder[0] ?? '';
  const otherLocalized = localizedChanged
    ? (
        await trx
          .selectFrom('fields')
          .select('id')
          .where('item_type_id', '=', after.item_type_id)
          .where('localized', '=', true)
          .where('id', '!=', after.id)
          .execute()
      ).map((row) => row.id)
    : [];
  const convert = (value: unknown) =>
    orEmpty(
      after.field_type,
      typeChanged
        ? convertValue(before.field_type as FieldType, after.field_type as FieldType, value)
        : value,
    );
  const relocalize = (value: unknown, values: StoredValues) => {
    if (!localizedChanged) return value;
    if (!after.localized)
      return orEmpty(after.field_type, isPlainObject(value) ? value[mainLocale] : null);
    // The record's locales are those of its other localized values (else the main one):
    // the value goes to the main locale, or the record's first when it is not in it.
    const locales = recordLocalesIn(otherLocalized, values, siteOrder) ?? [mainLocale];
    const home = locales.includes(mainLocale) ? mainLocale : locales[0];
    return Object.fromEntries(
      locales.map((locale) => [locale, locale === home ? value : emptyValue(after.field_type)]),
    );
  };
  if (localizedChanged && !after.localized)
    await deleteBlocksHeldBy(trx, { ...after, localized: true }, [mainLocale]);
  const rewrite = (values: StoredValues) =>
    Object.hasOwn(values, after.id)
      ? {
          ...values,
          [after.id]: relocalize(eachValue(before.localized, values[after.id], convert), values),
        }
      : values;
  await refreshRecords(trx, after.item_type_id, rewrite);
  await rewriteBlocks(trx, after.item_type_id, rewrite);
}

/** The locales of the first of these localized values the record holds, in site order. */
function recordLocalesIn(
  fieldIds: readonly string[],
  values: StoredValues,
  siteOrder: readonly string[],
): string[] | undefined {
  const value = fieldIds.map((id) => values[id]).find(isPlainObject);
  return value && siteOrder.filter((locale) => Object.hasOwn(value, locale));
}

/** Rewrites the values of every block of a block model (blocks have no validity to keep). */
async function rewriteBlocks(
  trx: EnvTrx,
  blockModelId: string,
  rewrite: (values: StoredValues) => StoredValues,
): Promise<void> {
  const rows = await trx
    .selectFrom('blocks')
    .select(['id', 'item_values'])
    .where('item_type_id', '=', blockModelId)
    .execute();
  for (const row of rows) {
    const values = rewrite(row.item_values);
    if (JSON.stringify(values) !== JSON.stringify(row.item_values))
      await trx
        .updateTable('blocks')
        .set({ item_values: JSON.stringify(values) })
        .where('id', '=', row.id)
        .execute();
  }
}

/**
 * The site's locales changed: every localized value keeps the locales still in the site
 * and drops the others, and the blocks a dropped locale's value held (with the blocks inside
 * them) are deleted. A record of a model with `all_locales_required` is in every locale: a
 * new locale gets a key (empty: a new locale's default is empty). Other records stay out of
 * a new locale, as records saved in some locales only do; one left in no locale at all is
 * put in the main locale (empty), so that it stays in some locale. Validity is recomputed
 * (a required value missing in a new locale makes its record invalid).
 */
export async function reshapeRecordLocales(trx: EnvTrx, locales: readonly string[]): Promise<void> {
  const fields = await trx
    .selectFrom('fields')
    .innerJoin('item_types', 'item_types.id', 'fields.item_type_id')
    .select([
      'fields.id',
      'fields.item_type_id',
      'fields.field_type',
      'item_types.all_locales_required',
    ])
    .where('fields.localized', '=', true)
    .execute();
  const byModel = new Map<string, { fields: typeof fields; allLocales: boolean }>();
  for (const field of fields) {
    const model = byModel.get(field.item_type_id) ?? {
      fields: [],
      allLocales: field.all_locales_required,
    };
    model.fields.push(field);
    byModel.set(field.item_type_id, model);
  }
  // Blocks named only by dropped locales' values: collected while the values are rewritten
  // (a stored value names its blocks by id; published values hold theirs inline).
  const dropped: string[] = [];
  for (const [itemTypeId, model] of byModel) {
    const reshape = (value: unknown, fieldType: string) => {
      const byLocale = isPlainObject(value) ? value : {};
      const kept = locales.filter((locale) => model.allLocales || Object.hasOwn(byLocale, locale));
      return Object.fromEntries(
        (kept.length > 0 ? kept : locales.slice(0, 1)).map((locale) => [
          locale,
          orEmpty(fieldType, byLocale[locale]),
        ]),
      );
    };
    const rewrite = (values: StoredValues) => {
      for (const field of model.fields)
        dropped.push(...blockIdsHeld({ ...field, localized: true }, values[field.id], locales));
      return {
        ...values,
        ...Object.fromEntries(
          model.fields.map(({ id, field_type }) => [id, reshape(values[id], field_type)]),
        ),
      };
    };
    await refreshRecords(trx, itemTypeId, rewrite);
    await rewriteBlocks(trx, itemTypeId, rewrite);
  }
  await deleteBlocksAndInner(trx, [...new Set(dropped)]);
}
