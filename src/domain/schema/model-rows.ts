import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { FieldRow, FieldsetRow, ItemTypeRow } from '../../db/schema.ts';

// The rows of models, and the ids of their fields and fieldsets in form order: what a
// model's presentation and every reader of records look a model up by.

/** Ids of a model's fields (in form order) and fieldsets, for its relationships. */
export type ItemTypeChildren = { fieldIds: string[]; fieldsetIds: string[] };

/** Finds a model by id or, failing that, by api_key (the two never collide in practice). */
export async function findItemType(
  db: EnvQueryable,
  idOrApiKey: string,
): Promise<ItemTypeRow | null> {
  const rows = await db
    .selectFrom('item_types')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrApiKey), eb('api_key', '=', idOrApiKey)]))
    .execute();
  return rows.find((row) => row.id === idOrApiKey) ?? rows[0] ?? null;
}

export type ChildRows = {
  fields: Pick<FieldRow, 'id' | 'item_type_id' | 'fieldset_id' | 'position' | 'field_type'>[];
  fieldsets: Pick<FieldsetRow, 'id' | 'item_type_id' | 'position'>[];
};

/** The field and fieldset rows of these models, each in position order. */
export async function loadChildRows(db: EnvQueryable, itemTypeIds: string[]): Promise<ChildRows> {
  if (itemTypeIds.length === 0) return { fields: [], fieldsets: [] };
  const [fields, fieldsets] = await Promise.all([
    db
      .selectFrom('fields')
      .select(['id', 'item_type_id', 'fieldset_id', 'position', 'field_type'])
      .where('item_type_id', 'in', itemTypeIds)
      .orderBy('position')
      .orderBy('seq')
      .execute(),
    db
      .selectFrom('fieldsets')
      .select(['id', 'item_type_id', 'position'])
      .where('item_type_id', 'in', itemTypeIds)
      .orderBy('position')
      .orderBy('seq')
      .execute(),
  ]);
  return { fields, fieldsets };
}

/**
 * Field and fieldset ids of each model, fields in form order: the top level
 * (fieldsets and loose fields share one ordering) with each fieldset's fields inline.
 */
export function arrangeChildren(
  { fields, fieldsets }: ChildRows,
  itemTypeIds: string[],
): Map<string, ItemTypeChildren> {
  const result = new Map<string, ItemTypeChildren>();
  for (const id of itemTypeIds) result.set(id, { fieldIds: [], fieldsetIds: [] });
  const fieldsInFieldset = new Map<string, string[]>();
  for (const field of fields) {
    if (field.fieldset_id === null) continue;
    const list = fieldsInFieldset.get(field.fieldset_id) ?? [];
    list.push(field.id);
    fieldsInFieldset.set(field.fieldset_id, list);
  }
  const topLevel = [
    ...fieldsets.map((f) => ({ ...f, isFieldset: true })),
    ...fields.filter((f) => f.fieldset_id === null).map((f) => ({ ...f, isFieldset: false })),
  ].sort((a, b) => a.position - b.position || Number(b.isFieldset) - Number(a.isFieldset));
  for (const entry of topLevel) {
    const children = result.get(entry.item_type_id);
    if (!children) continue;
    if (entry.isFieldset) {
      children.fieldsetIds.push(entry.id);
      children.fieldIds.push(...(fieldsInFieldset.get(entry.id) ?? []));
    } else {
      children.fieldIds.push(entry.id);
    }
  }
  return result;
}

export async function loadChildren(
  db: EnvQueryable,
  itemTypeIds: string[],
): Promise<Map<string, ItemTypeChildren>> {
  return arrangeChildren(await loadChildRows(db, itemTypeIds), itemTypeIds);
}
