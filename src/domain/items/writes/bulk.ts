import type { Scope } from '../../../db/environment-scope.ts';
import { DomainError } from '../../errors.ts';
import type { RecordGate } from '../access/record-gate.ts';
import { publishItem } from '../publishing/publish-item.ts';
import { moveToStage } from '../publishing/stage-moves.ts';
import { unpublishItem } from '../publishing/unpublish-item.ts';
import type { RecordView } from '../record-view.ts';
import { destroyItem } from './destroy-item.ts';

export type BulkAction = 'publish' | 'unpublish' | 'destroy';

type Change = (scope: Scope, id: string, gate: RecordGate) => Promise<RecordView>;

const ACTIONS: Record<BulkAction, Change> = {
  publish: (scope, id, gate) => publishItem(scope, id, undefined, { gate }),
  unpublish: (scope, id, gate) => unpublishItem(scope, id, undefined, { gate }),
  destroy: destroyItem,
};

/** The records changed, and how many could not be. */
export type BulkResult = { records: RecordView[]; failed: number };

/**
 * Changes each record in its own transaction (with its own event), so one refused record
 * does not undo the others; the job result counts both. Every record was checked before
 * any is changed; `gate` judges each again in its transaction, as it then is (a record
 * moved to another stage meanwhile fails alone).
 */
async function eachRecord(
  ids: readonly string[],
  change: (id: string) => Promise<RecordView>,
): Promise<BulkResult> {
  const records: RecordView[] = [];
  let failed = 0;
  for (const id of ids) {
    try {
      records.push(await change(id));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      failed++;
    }
  }
  return { records, failed };
}

/** A bulk publish, unpublish or destroy. */
export function bulkItems(
  scope: Scope,
  action: BulkAction,
  ids: readonly string[],
  gate: RecordGate,
): Promise<BulkResult> {
  return eachRecord(ids, (id) => ACTIONS[action](scope, id, gate));
}

/** A bulk move to a workflow stage: records not following a workflow with it fail. */
export function bulkMoveToStage(
  scope: Scope,
  ids: readonly string[],
  stage: string,
  gate: RecordGate,
): Promise<BulkResult> {
  return eachRecord(ids, (id) => moveToStage(scope, id, stage, gate));
}
