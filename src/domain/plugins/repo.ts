import { sql } from 'kysely';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { PluginRow } from '../../db/schema.ts';
import type { PluginDraft } from './rules.ts';

function columns(draft: PluginDraft) {
  return {
    ...draft,
    parameters: JSON.stringify(draft.parameters),
    permissions: JSON.stringify(draft.permissions),
    field_types: draft.field_types === null ? null : JSON.stringify(draft.field_types),
    parameter_definitions:
      draft.parameter_definitions === null ? null : JSON.stringify(draft.parameter_definitions),
  };
}

export async function findPlugin(db: EnvQueryable, id: string): Promise<PluginRow | undefined> {
  return db.selectFrom('plugins').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listPlugins(db: EnvQueryable): Promise<PluginRow[]> {
  return db.selectFrom('plugins').selectAll().orderBy('seq').execute();
}

export async function insertPlugin(db: EnvQueryable, draft: PluginDraft): Promise<PluginRow> {
  return db.insertInto('plugins').values(columns(draft)).returningAll().executeTakeFirstOrThrow();
}

export async function savePlugin(db: EnvQueryable, draft: PluginDraft): Promise<PluginRow> {
  const { id, ...changes } = columns(draft);
  return db
    .updateTable('plugins')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deletePlugin(db: EnvQueryable, id: string): Promise<void> {
  await db.deleteFrom('plugins').where('id', '=', id).execute();
}

/** Which of these ids name a plugin of the environment. */
export async function existingPluginIds(db: EnvQueryable, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('plugins').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** Fields whose editor is this plugin or whose addons list it. */
export async function fieldsUsing(db: EnvQueryable, pluginId: string) {
  const addon = JSON.stringify([{ id: pluginId }]);
  return db
    .selectFrom('fields')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb(sql`appearance->>'editor'`, '=', pluginId),
        eb(sql`appearance->'addons'`, '@>', sql`${addon}::jsonb`),
      ]),
    )
    .orderBy('seq')
    .execute();
}
