import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { ItemTypeFilterRow } from '../../db/schema.ts';
import type { ItemTypeFilterDraft } from './rules.ts';

type Valid = ItemTypeFilterDraft & { item_type_id: string };

function columns(draft: Valid) {
  return {
    ...draft,
    filter: JSON.stringify(draft.filter),
    columns: draft.columns === null ? null : JSON.stringify(draft.columns),
  };
}

export async function findItemTypeFilter(
  db: EnvQueryable,
  id: string,
): Promise<ItemTypeFilterRow | undefined> {
  return db.selectFrom('item_type_filters').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listItemTypeFilters(db: EnvQueryable): Promise<ItemTypeFilterRow[]> {
  return db.selectFrom('item_type_filters').selectAll().orderBy('seq').execute();
}

export async function insertItemTypeFilter(
  db: EnvQueryable,
  draft: Valid,
): Promise<ItemTypeFilterRow> {
  return db
    .insertInto('item_type_filters')
    .values(columns(draft))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function saveItemTypeFilter(
  db: EnvQueryable,
  draft: Valid,
): Promise<ItemTypeFilterRow> {
  const { id, ...changes } = columns(draft);
  return db
    .updateTable('item_type_filters')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteItemTypeFilter(db: EnvQueryable, id: string): Promise<void> {
  await db.deleteFrom('item_type_filters').where('id', '=', id).execute();
}

export async function findItemType(db: EnvQueryable, id: string | null) {
  if (id === null) return undefined;
  return db
    .selectFrom('item_types')
    .select('modular_block')
    .where('id', '=', id)
    .executeTakeFirst();
}
