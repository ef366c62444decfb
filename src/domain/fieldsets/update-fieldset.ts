import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { FieldsetRow } from '../../db/schema.ts';
import { Issues } from '../errors.ts';
import { moveMember } from '../positions/placement.ts';
import { emitModelUpdate, loadModelState, modelView } from '../schema/model-state.ts';
import type { FieldsetInput } from './attributes.ts';
import { findFieldsetOrFail } from './read-fieldsets.ts';
import { applyFieldsetAttributes, checkFieldset } from './rules.ts';
import { topLevelOf } from './top-level.ts';

export async function updateFieldset(
  scope: Scope,
  id: string,
  input: FieldsetInput,
): Promise<FieldsetRow> {
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const before = await findFieldsetOrFail(trx, id);
    const a = input.attributes;
    const draft = applyFieldsetAttributes(before, a);
    const issues = new Issues('Fieldset');
    checkFieldset(issues, draft, false, a);
    issues.throwIfAny();
    const moves = a.position !== undefined && a.position !== before.position;
    const unchanged =
      !moves &&
      draft.title === before.title &&
      draft.hint === before.hint &&
      draft.collapsible === before.collapsible &&
      draft.start_collapsed === before.start_collapsed;
    if (unchanged) return before;

    const state = await loadModelState(trx, before.item_type_id);
    const group = topLevelOf(before.item_type_id);
    const position = moves
      ? (
          await moveMember(
            trx,
            { kind: 'fieldset', id, position: before.position },
            group,
            group,
            a.position,
          )
        ).position
      : before.position;
    const row = await trx
      .updateTable('fieldsets')
      .set({
        title: draft.title,
        hint: draft.hint,
        collapsible: draft.collapsible,
        start_collapsed: draft.start_collapsed,
        position,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const previous = modelView(state);
    const entity = moves ? modelView(await loadModelState(trx, row.item_type_id)) : previous;
    await emitModelUpdate(tx, previous, entity);
    return row;
  });
}
