import type { EnvTrx } from '../../../db/environment-scope.ts';
import type { FieldRow } from '../../../db/schema.ts';
import {
  convertValue,
  emptyValue,
  type FieldType,
  orEmpty,
} from '../../schema/field-types/index.ts';
import { isPlainObject } from '../../schema/field-types/problems.ts';
import { siteLocales } from '../../schema/locales.ts';
import { deleteBlocksHeldBy } from './block-removal.ts';
import { refreshRecords, type StoredValues } from './refresh.ts';
import { rewriteBlocks } from './rewrite-blocks.ts';

type FieldChange = Pick<
  FieldRow,
  'id' | 'item_type_id' | 'field_type' | 'localized' | 'validators'
>;

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
