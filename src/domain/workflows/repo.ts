import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { WorkflowRow } from '../../db/schema.ts';
import type { WorkflowDraft } from './rules.ts';

export async function findWorkflow(db: EnvQueryable, id: string): Promise<WorkflowRow | undefined> {
  return db.selectFrom('workflows').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listWorkflows(db: EnvQueryable): Promise<WorkflowRow[]> {
  return db.selectFrom('workflows').selectAll().orderBy('seq').execute();
}

export async function insertWorkflow(db: EnvQueryable, draft: WorkflowDraft): Promise<WorkflowRow> {
  return db
    .insertInto('workflows')
    .values({ ...draft, stages: JSON.stringify(draft.stages) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function saveWorkflow(db: EnvQueryable, draft: WorkflowDraft): Promise<WorkflowRow> {
  const { id, ...changes } = draft;
  return db
    .updateTable('workflows')
    .set({ ...changes, stages: JSON.stringify(changes.stages) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteWorkflow(db: EnvQueryable, id: string): Promise<void> {
  await db.deleteFrom('workflows').where('id', '=', id).execute();
}

/** Is another workflow already using this api_key? */
export async function apiKeyTaken(
  db: EnvQueryable,
  apiKey: string,
  exceptId: string | null,
): Promise<boolean> {
  let query = db.selectFrom('workflows').select('id').where('api_key', '=', apiKey);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Ids of the models that follow this workflow. */
export async function itemTypesUsing(db: EnvQueryable, workflowId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('item_types')
    .select('id')
    .where('workflow_id', '=', workflowId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => row.id);
}
