import type { EnvTrx } from '../../../db/environment-scope.ts';
import { initialOf, workflowStages } from '../../schema/stages.ts';

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
