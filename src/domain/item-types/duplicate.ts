import type { EnvTrx } from '../../db/environment-scope.ts';
import type { FieldRow, ItemTypeRow } from '../../db/schema.ts';
import { generateId } from '../ids.ts';
import { FIELD_RELATIONSHIPS } from './attributes.ts';
import { clashingItemType } from './repo.ts';

/** The smallest N for which both "<name> (copy #N)" and "<api_key>_copyN" are free. */
async function freeCopyNumber(trx: EnvTrx, source: ItemTypeRow): Promise<number> {
  for (let n = 1; ; n++) {
    const clash = await clashingItemType(
      trx,
      `${source.name} (copy #${n})`,
      `${source.api_key}_copy${n}`,
      null,
    );
    if (!clash.nameTaken && !clash.apiKeyTaken) return n;
  }
}

/** Field validators that name other fields of the same model by id. */
function remapFieldReferences(
  validators: Record<string, unknown>,
  fieldIds: Map<string, string>,
): Record<string, unknown> {
  const slug = validators.slug_title_field as { title_field_id?: string } | undefined;
  if (!slug?.title_field_id) return validators;
  const copied = fieldIds.get(slug.title_field_id) ?? slug.title_field_id;
  return { ...validators, slug_title_field: { ...slug, title_field_id: copied } };
}

/**
 * Copies a model with its fieldsets and fields (new ids, same api_keys). Its
 * relationships to its own fields point at the copies. Records are not copied.
 * The copy's api_key is `<api_key>_copyN`: an underscore before a digit is not a valid api_key.
 */
export async function duplicateItemTypeRows(
  trx: EnvTrx,
  source: ItemTypeRow,
): Promise<ItemTypeRow> {
  const n = await freeCopyNumber(trx, source);
  const [fields, fieldsets] = await Promise.all([
    trx
      .selectFrom('fields')
      .selectAll()
      .where('item_type_id', '=', source.id)
      .orderBy('seq')
      .execute(),
    trx
      .selectFrom('fieldsets')
      .selectAll()
      .where('item_type_id', '=', source.id)
      .orderBy('seq')
      .execute(),
  ]);
  const fieldIds = new Map(fields.map((field) => [field.id, generateId()]));
  const fieldsetIds = new Map(fieldsets.map((fieldset) => [fieldset.id, generateId()]));
  const { seq: _seq, created_at: _created, ...attributes } = source;
  const copy = await trx
    .insertInto('item_types')
    .values({
      ...attributes,
      id: generateId(),
      name: `${source.name} (copy #${n})`,
      api_key: `${source.api_key}_copy${n}`,
      singleton_item_id: null,
      has_singleton_item: false,
      // Field relationships are set once the copied fields exist.
      ...Object.fromEntries(Object.values(FIELD_RELATIONSHIPS).map((column) => [column, null])),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const fieldset of fieldsets) {
    const { seq: _s, created_at: _c, ...rest } = fieldset;
    await trx
      .insertInto('fieldsets')
      .values({ ...rest, id: fieldsetIds.get(fieldset.id) ?? generateId(), item_type_id: copy.id })
      .execute();
  }
  for (const field of fields) await insertFieldCopy(trx, field, copy.id, fieldIds, fieldsetIds);
  const relationships = Object.fromEntries(
    Object.values(FIELD_RELATIONSHIPS).map((column) => {
      const original = source[column];
      return [column, original === null ? null : (fieldIds.get(original) ?? null)];
    }),
  );
  return trx
    .updateTable('item_types')
    .set(relationships)
    .where('id', '=', copy.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function insertFieldCopy(
  trx: EnvTrx,
  field: FieldRow,
  itemTypeId: string,
  fieldIds: Map<string, string>,
  fieldsetIds: Map<string, string>,
): Promise<void> {
  const { seq: _s, created_at: _c, ...rest } = field;
  await trx
    .insertInto('fields')
    .values({
      ...rest,
      id: fieldIds.get(field.id) ?? generateId(),
      item_type_id: itemTypeId,
      fieldset_id: field.fieldset_id === null ? null : (fieldsetIds.get(field.fieldset_id) ?? null),
      validators: JSON.stringify(remapFieldReferences(field.validators, fieldIds)),
      appearance: JSON.stringify(field.appearance),
      default_value: JSON.stringify(field.default_value),
    })
    .execute();
}
