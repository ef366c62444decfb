import type { ScopedTransaction } from '../../db/environment-scope.ts';
import { fillNewField } from '../items/schema-changes/new-field.ts';
import type { Placement } from '../positions/placement.ts';
import {
  emitModelUpdate,
  type ModelState,
  modelView,
  summaryOf,
  type ValueHolders,
  withNewField,
} from '../schema/model-state.ts';
import type { FieldChange } from './field-view.ts';
import * as repo from './repo.ts';

/**
 * Writes a new field, placed (`shifted`: the siblings its placement moved), and its
 * model's update event; a create and a duplicate end here. On a model with no records and
 * no blocks nothing takes the field's default, so its row goes in the event's statement
 * (LastWrites); otherwise it goes first, then the values that take its default (whose
 * validity check reads it), then the event.
 */
export async function addField(
  tx: ScopedTransaction,
  state: ModelState,
  field: repo.FieldDraft,
  shifted: Placement['shifted'],
  holders: ValueHolders,
): Promise<FieldChange> {
  const model = modelView(withNewField(state, summaryOf(field), shifted));
  const insert = repo.fieldInsert(tx.db, field);
  if (holders.records || holders.blocks) {
    await insert.execute();
    await fillNewField(tx.db, field, holders);
    await emitModelUpdate(tx, modelView(state), model);
  } else {
    await emitModelUpdate(tx, modelView(state), model, { writes: [insert] });
  }
  return { field, model, shifted: [] };
}
