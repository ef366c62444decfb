import { sql } from 'kysely';
import { withWrites } from '../../db/carried-writes.ts';
import type { EnvTrx } from '../../db/environment-scope.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { EnvironmentDatabase, FieldRow } from '../../db/schema.ts';
import { siteLocales } from '../fields/check-context.ts';
import { convertValue, type FieldType } from '../fields/field-types/index.ts';
import { isPlainObject } from '../fields/field-types/problems.ts';
import { blockIdsHeld, deleteBlocksAndInner, deleteBlocksHeldBy } from './block-removal.ts';
import { invalidRecordsOf, refreshRecords, type StoredValues } from './refresh.ts';

/**
 * Schema changes reaching records (spec 09 §3), each run in the schema change's own
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

/** Whether a model has records, and blocks, read in the transaction of the change. */
export type ValueHolders = { records: boolean; blocks: boolean };

/**
 * A new field: existing records (current and published values) get its default value;
 * with validators, records its default breaks become invalid. Blocks of a block model get
 * its default too. `holders` says which of the two tables has rows of the model: a table
 * without any is left alone (a model's first fields usually come before its records).
 */
export async function fillNewField(
  trx: EnvTrx,
  field: Pick<FieldRow, 'id' | 'item_type_id' | 'default_value' | 'validators'>,
  holders: ValueHolders,
): Promise<void> {
  const entry = sql`jsonb_build_object(${field.id}::text, ${JSON.stringify(field.default_value ?? null)}::jsonb)`;
  if (holders.records) {
    await trx
      .updateTable('items')
      .set({
        item_values: sql`item_values || ${entry}`,
        published_values: sql`CASE WHEN published_values IS NULL THEN NULL ELSE published_values || ${entry} END`,
      })
      .where('item_type_id', '=', field.item_type_id)
      .execute();
  }
  if (holders.blocks) {
    await trx
      .updateTable('blocks')
      .set({ item_values: sql`item_values || ${entry}` })
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
 * An updated field. A `field_type` change converts every record's value (spec 02 §9;
 * per locale when localized), then a `localized` switch makes a value the main locale's
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
  const mainLocale = localizedChanged ? ((await siteLocales(trx))[0] ?? '') : '';
  const convert = (value: unknown) =>
    typeChanged
      ? convertValue(before.field_type as FieldType, after.field_type as FieldType, value)
      : value;
  const relocalize = (value: unknown) => {
    if (!localizedChanged) return value;
    if (after.localized) return { [mainLocale]: value ?? null };
    return isPlainObject(value) ? (value[mainLocale] ?? null) : null;
  };
  if (localizedChanged && !after.localized)
    await deleteBlocksHeldBy(trx, { ...after, localized: true }, [mainLocale]);
  const rewrite = (values: StoredValues) =>
    Object.hasOwn(values, after.id)
      ? {
          ...values,
          [after.id]: relocalize(eachValue(before.localized, values[after.id], convert)),
        }
      : values;
  await refreshRecords(trx, after.item_type_id, rewrite);
  await rewriteBlocks(trx, after.item_type_id, rewrite);
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
 * them) are deleted. A record is in the main locale, and in every locale when its
 * model has `all_locales_required`: those locales get a key (null: a new locale's default
 * is null) when the value lacks it. Other records stay out of a new locale, as records
 * saved in some locales only do. Validity is recomputed (a required value missing in a
 * new locale makes its record invalid).
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
    const rewrite = (values: StoredValues) => {
      for (const field of model.fields)
        dropped.push(...blockIdsHeld({ ...field, localized: true }, values[field.id], locales));
      return {
        ...values,
        ...Object.fromEntries(model.fields.map(({ id }) => [id, reshape(values[id])])),
      };
    };
    await refreshRecords(trx, itemTypeId, rewrite);
    await rewriteBlocks(trx, itemTypeId, rewrite);
  }
  await deleteBlocksAndInner(trx, [...new Set(dropped)]);
}
