import type { Scope } from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../../db/environment-transaction.ts';
import { DomainError } from '../../errors.ts';
import { workflowStages } from '../../schema/stages.ts';
import type { RecordGate } from '../access/record-gate.ts';
import { eventEntityOf, storedSnapshot } from '../event-entities.ts';
import { findRecordOrFail } from '../find-item.ts';
import { emitItemEvent } from '../record-events.ts';
import type { RecordView } from '../record-view.ts';

/**
 * Moves a record to a stage of its model's workflow (an `update` event; the values and
 * versions are untouched). A record whose model follows no workflow, or a stage the
 * workflow does not have, is refused. `gate` judges the caller's permission on the
 * record in the stage the transaction finds it in.
 */
export async function moveToStage(
  scope: Scope,
  id: string,
  stage: string,
  gate?: RecordGate,
): Promise<RecordView> {
  return inEnvironmentTransaction(
    scope,
    async (tx) => {
      const {
        row: before,
        context: { model, fields, state },
        creator,
      } = await findRecordOrFail(tx, id);
      await gate?.(tx, [id]);
      if (model.workflow_id === null)
        throw new DomainError('INVALID_ATTRIBUTES', `record ${id}: its model follows no workflow`);
      const stages = await workflowStages(tx.db, model.workflow_id);
      if (!stages.some((candidate) => candidate.id === stage))
        throw new DomainError(
          'INVALID_ATTRIBUTES',
          `stage "${stage}" is not a stage of the workflow of record ${id} (${stages.map((s) => s.id).join(', ')})`,
        );
      await tx.db.updateTable('items').set({ stage }).where('id', '=', id).execute();
      const snapshot = await storedSnapshot(tx.db, before, fields);
      const entity = eventEntityOf({ ...before, stage }, model, fields, snapshot);
      const previous = eventEntityOf(before, model, fields, snapshot);
      await emitItemEvent(tx, state, 'update', entity, previous, creator);
      return entity.plain;
    },
    RECORD_CHANGE,
  );
}
