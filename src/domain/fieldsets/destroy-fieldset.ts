import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { FieldsetRow } from '../../db/schema.ts';
import { loadGroup, storeGroup } from '../positions/group-store.ts';
import { withInserted, without } from '../positions/order.ts';
import { emitModelUpdate, loadModelState, modelView } from '../schema/model-state.ts';
import { findFieldsetOrFail } from './read-fieldsets.ts';
import { topLevelOf } from './top-level.ts';

/**
 * Deletes a fieldset. Its fields are kept: the top level closes the fieldset's gap, and
 * they are appended to it in their order.
 */
export async function destroyFieldset(scope: Scope, id: string): Promise<FieldsetRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const fieldset = await findFieldsetOrFail(trx, id);
    const state = await loadModelState(trx, fieldset.item_type_id);
    const topLevel = topLevelOf(fieldset.item_type_id);
    const [top, inside] = await Promise.all([
      loadGroup(trx, topLevel),
      loadGroup(trx, { itemTypeId: fieldset.item_type_id, fieldsetId: id }),
    ]);
    const after = inside.reduce(
      (group, member) => withInserted(group, member, undefined),
      without(top, id),
    );
    await storeGroup(trx, topLevel, top, after);
    await trx.deleteFrom('fieldsets').where('id', '=', id).execute();
    const entity = modelView(await loadModelState(trx, fieldset.item_type_id));
    await emitModelUpdate(tx, modelView(state), entity);
    return fieldset;
  });
}
