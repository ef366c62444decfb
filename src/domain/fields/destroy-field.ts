import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { dropValueIndexes } from '../items/query/value-indexes.ts';
import { dropFieldValues } from '../items/schema-changes/dropped-field.ts';
import { removeMemberIn } from '../positions/placement.ts';
import { emitModelUpdate, groupIn, modelView, withoutField } from '../schema/model-state.ts';
import { fieldWithModelAtEntry } from './field-at-entry.ts';
import { groupOf } from './field-group.ts';
import type { FieldChange } from './field-view.ts';
import { refuseIfSlugSource, releasedRelationships, releaseRelationships } from './model-links.ts';
import * as repo from './repo.ts';

/**
 * Deletes a field. Model relationships pointing at it are cleared; a field another
 * field's slug is generated from is refused (REQUIRED_BY_ASSOCIATION).
 */
export async function destroyField(scope: Scope, idOrKey: string): Promise<FieldChange> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const { field, state } = await fieldWithModelAtEntry(tx, idOrKey);
    await refuseIfSlugSource(trx, field);
    const itemType = await releaseRelationships(
      trx,
      state.itemType,
      releasedRelationships(state.itemType, field.id, null),
    );
    // The field's group as the state read under the lock holds it: no read of its own.
    const group = groupOf(field);
    const shifted = await removeMemberIn(trx, group, groupIn(state, group), field.id);
    await repo.deleteField(trx, field.id);
    await dropFieldValues(trx, field);
    await dropValueIndexes(tx, [field.id]);
    const model = modelView(withoutField({ ...state, itemType }, field.id, shifted));
    await emitModelUpdate(tx, modelView(state), model);
    return { field, model, shifted: [] };
  });
}
