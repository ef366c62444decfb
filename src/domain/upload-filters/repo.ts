import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { UploadFilterRow } from '../../db/schema.ts';
import type { UploadFilterDraft } from './rules.ts';

export async function findUploadFilter(
  db: EnvQueryable,
  id: string,
): Promise<UploadFilterRow | undefined> {
  return db.selectFrom('upload_filters').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listUploadFilters(db: EnvQueryable): Promise<UploadFilterRow[]> {
  return db.selectFrom('upload_filters').selectAll().orderBy('seq').execute();
}

export async function insertUploadFilter(
  db: EnvQueryable,
  draft: UploadFilterDraft,
): Promise<UploadFilterRow> {
  return db
    .insertInto('upload_filters')
    .values({ ...draft, filter: JSON.stringify(draft.filter) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function saveUploadFilter(
  db: EnvQueryable,
  draft: UploadFilterDraft,
): Promise<UploadFilterRow> {
  const { id, ...changes } = draft;
  return db
    .updateTable('upload_filters')
    .set({ ...changes, filter: JSON.stringify(changes.filter) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteUploadFilter(db: EnvQueryable, id: string): Promise<void> {
  await db.deleteFrom('upload_filters').where('id', '=', id).execute();
}
