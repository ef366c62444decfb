import type { EnvQueryable, EnvTrx } from '../../db/environment-scope.ts';
import type { WorkflowStage } from '../../db/schema.ts';

// Workflow stages of records (meta.stage): a record of a model that follows a workflow is
// always in one of its stages; records of other models are in none (null).

/** The stages of a workflow, none when there is no workflow. */
export async function workflowStages(
  db: EnvQueryable,
  workflowId: string | null,
): Promise<WorkflowStage[]> {
  if (workflowId === null) return [];
  const row = await db
    .selectFrom('workflows')
    .select('stages')
    .where('id', '=', workflowId)
    .executeTakeFirst();
  return row?.stages ?? [];
}

function initialOf(stages: readonly WorkflowStage[]): string | null {
  return (stages.find((stage) => stage.initial) ?? stages[0])?.id ?? null;
}

/** The stage a new record starts in: its workflow's initial one (no read without a workflow). */
export async function initialStage(
  db: EnvQueryable,
  workflowId: string | null,
): Promise<string | null> {
  return initialOf(await workflowStages(db, workflowId));
}

/**
 * After a model's workflow changed, or a workflow's stages did: every record of the
 * models following `workflowId` that is in no stage of it moves to its initial stage
 * (with `itemTypeId`, only that model's records; a model without workflow: none). One
 * statement.
 */
export async function settleStages(
  trx: EnvTrx,
  target: { workflowId: string | null; itemTypeId?: string },
): Promise<void> {
  if (target.workflowId === null) {
    if (target.itemTypeId !== undefined)
      await trx
        .updateTable('items')
        .set({ stage: null })
        .where('item_type_id', '=', target.itemTypeId)
        .where('stage', 'is not', null)
        .execute();
    return;
  }
  const stages = await workflowStages(trx, target.workflowId);
  const initial = initialOf(stages);
  // A workflow always has a stage (its rules require one).
  if (initial === null) return;
  const ids = stages.map((stage) => stage.id);
  let query = trx
    .updateTable('items')
    .set({ stage: initial })
    .where(
      'item_type_id',
      'in',
      trx.selectFrom('item_types').select('id').where('workflow_id', '=', target.workflowId),
    )
    .where((eb) => eb.or([eb('stage', 'is', null), eb('stage', 'not in', ids)]));
  if (target.itemTypeId !== undefined) query = query.where('item_type_id', '=', target.itemTypeId);
  await query.execute();
}
