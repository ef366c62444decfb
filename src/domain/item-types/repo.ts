import type { EnvQueryable, ScopedTransaction } from '../../db/environment-scope.ts';
import type { FieldRow, FieldsetRow, ItemTypeRow, NewItemType } from '../../db/schema.ts';
import { menuTopLevelEnd } from '../menu/linked.ts';

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

export async function listItemTypes(db: EnvQueryable): Promise<ItemTypeRow[]> {
  return db.selectFrom('item_types').selectAll().orderBy('seq').execute();
}

export async function countItemTypes(db: EnvQueryable): Promise<number> {
  const row = await db
    .selectFrom('item_types')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The insert of a new model's row, not yet sent: its event's statement carries it. */
export function itemTypeInsert(db: EnvQueryable, row: NewItemType) {
  return db.insertInto('item_types').values(row);
}

/** The update writing every column of the model's row, not yet sent. */
export function itemTypeUpdate(db: EnvQueryable, row: ItemTypeRow) {
  const { id, seq: _seq, created_at: _created, ...changes } = row;
  return db.updateTable('item_types').set(changes).where('id', '=', id);
}

export async function deleteItemType(db: EnvQueryable, id: string): Promise<void> {
  await db.deleteFrom('item_types').where('id', '=', id).execute();
}

/** What creating a model checks and takes before it writes. */
export type NewModelFacts = {
  count: number;
  nameTaken: boolean;
  apiKeyTaken: boolean;
  draftModeDefault: boolean;
  /** Where the model's content-navigation entry goes: the end of the menu's top level. */
  menuEnd: number;
};

/**
 * The environment's number of models, whether this (case-insensitive) name or this api_key
 * is taken, the end of its menu's top level, and the project's default draft mode: one
 * statement, the project's site row with the environment's tables in subqueries (each
 * rendered by the scoped handle). Read under the environment's lock, they hold until the
 * change commits.
 */
export async function newModelFacts(
  tx: ScopedTransaction,
  name: string,
  apiKey: string,
): Promise<NewModelFacts> {
  const models = () => tx.db.selectFrom('item_types');
  const row = await tx.project
    .selectFrom('site')
    .select((eb) => [
      'draft_mode_default',
      models()
        .select((m) => m.fn.countAll<string>().as('count'))
        .as('count'),
      eb
        .exists(
          models()
            .select('id')
            .where((m) => m(m.fn('lower', ['name']), '=', name.toLowerCase())),
        )
        .as('name_taken'),
      eb.exists(models().select('id').where('api_key', '=', apiKey)).as('api_key_taken'),
      menuTopLevelEnd(tx.db).as('menu_end'),
    ])
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.count),
    nameTaken: Boolean(row.name_taken),
    apiKeyTaken: Boolean(row.api_key_taken),
    draftModeDefault: row.draft_mode_default,
    menuEnd: Number(row.menu_end),
  };
}

/** Is another model already using this (case-insensitive) name, or this api_key? One query for both. */
export async function clashingItemType(
  db: EnvQueryable,
  name: string,
  apiKey: string,
  exceptId: string | null,
): Promise<{ nameTaken: boolean; apiKeyTaken: boolean }> {
  let query = db
    .selectFrom('item_types')
    .select((eb) => [
      eb(eb.fn('lower', ['name']), '=', name.toLowerCase()).as('name_taken'),
      eb('api_key', '=', apiKey).as('api_key_taken'),
    ])
    .where((eb) =>
      eb.or([eb(eb.fn('lower', ['name']), '=', name.toLowerCase()), eb('api_key', '=', apiKey)]),
    );
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  const rows = await query.execute();
  return {
    nameTaken: rows.some((row) => row.name_taken),
    apiKeyTaken: rows.some((row) => row.api_key_taken),
  };
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
