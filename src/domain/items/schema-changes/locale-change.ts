import type { EnvTrx } from '../../../db/environment-scope.ts';
import { orEmpty } from '../../schema/field-types/index.ts';
import { isPlainObject } from '../../schema/field-types/problems.ts';
import { blockIdsHeld, deleteBlocksAndInner } from './block-removal.ts';
import { refreshRecords, type StoredValues } from './refresh.ts';
import { rewriteBlocks } from './rewrite-blocks.ts';

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
