import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { FieldsetRow } from '../../db/schema.ts';
import { Issues } from '../errors.ts';
import { generateId } from '../ids.ts';
import { findItemTypeOrFail } from '../item-types/read-item-types.ts';
import { checkRoomFor } from '../limits.ts';
import { checkNewId } from '../new-ids.ts';
import { placeNew } from '../positions/placement.ts';
import { emitModelUpdate, loadModelState, modelView } from '../schema/model-state.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import type { FieldsetInput } from './attributes.ts';
import { applyFieldsetAttributes, blankFieldset, checkFieldset } from './rules.ts';
import { topLevelOf } from './top-level.ts';

export async function createFieldset(
  scope: Scope,
  itemTypeIdOrKey: string,
  input: FieldsetInput,
): Promise<FieldsetRow> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      const owner = await findItemTypeOrFail(trx, itemTypeIdOrKey);
      const state = await loadModelState(trx, owner.id);
      checkRoomFor('fieldsets_per_item_type', state.fieldsets.length);
      const issues = new Issues('Fieldset');
      await checkNewId(trx, issues, 'id', input.id, 'fieldsets');
      const draft = applyFieldsetAttributes(
        blankFieldset(input.id ?? generateId(), owner.id),
        input.attributes,
      );
      checkFieldset(issues, draft, true, input.attributes);
      issues.throwIfAny();
      const placement = await placeNew(
        trx,
        topLevelOf(owner.id),
        { kind: 'fieldset', id: draft.id },
        input.attributes.position,
      );
      const row = await trx
        .insertInto('fieldsets')
        .values({ ...draft, position: placement.position })
        .returningAll()
        .executeTakeFirstOrThrow();
      const entity = modelView(await loadModelState(trx, owner.id));
      await emitModelUpdate(tx, modelView(state), entity);
      return row;
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}
