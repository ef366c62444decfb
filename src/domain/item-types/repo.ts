import type { EnvQueryable, ScopedTransaction } from '../../db/environment-scope.ts';
import type { ItemTypeRow, NewItemType } from '../../db/schema.ts';
import { menuTopLevelEnd } from '../menu/linked.ts';

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
