import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { ItemTypeRow } from '../../db/schema.ts';
import { emitEvent } from '../../events/outbox.ts';
import { refreshRecords } from '../items/schema-changes/refresh.ts';
import { settleStages } from '../items/schema-changes/stages.ts';
import { arrangeChildren } from '../schema/model-rows.ts';
import { cachedModelState, type ModelView } from '../schema/model-state.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import type { ItemTypeInput } from './attributes.ts';
import { checkAndBuild } from './check-item-type.ts';
import * as repo from './repo.ts';
import { applyItemTypeInput } from './rules.ts';

export async function updateItemType(
  scope: Scope,
  idOrApiKey: string,
  input: ItemTypeInput,
): Promise<ModelView> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      // Updating a model leaves its fields and fieldsets as they are: one read serves
      // the rules and both the previous and the new presentation. The first read: from the
      // schema cache at the locked version when kept.
      const state = await cachedModelState(tx, idOrApiKey);
      const before = state.itemType;
      const draft = await checkAndBuild(
        trx,
        before,
        applyItemTypeInput(before, input),
        input,
        state.fields,
      );
      const children = arrangeChildren(state, [before.id]).get(before.id) ?? {
        fieldIds: [],
        fieldsetIds: [],
      };
      const previous: ModelView = { itemType: before, children };
      const row: ItemTypeRow = { ...before, ...draft };
      const update = repo.itemTypeUpdate(trx, row);
      // Requiring every locale may leave records without a value they now need.
      const refresh = row.all_locales_required !== before.all_locales_required;
      // Records follow their model's workflow: they start over in its initial stage.
      const settle = row.workflow_id !== before.workflow_id;
      if (refresh || settle) await update.execute();
      if (refresh) await refreshRecords(trx, row.id);
      if (settle) await settleStages(trx, { workflowId: row.workflow_id, itemTypeId: row.id });
      const itemType: ModelView = { itemType: row, children };
      await emitEvent(
        tx,
        { entityType: 'item_type', eventType: 'update', model: itemType, previous },
        // Records read the model as updated: else the update is the last write, and its
        // event's statement carries it.
        refresh || settle ? undefined : { writes: [update] },
      );
      return itemType;
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}
