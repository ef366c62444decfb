import {
  type EnvQueryable,
  inEnvironmentTransaction,
  type Scope,
} from '../../db/environment-scope.ts';
import type { FieldsetRow } from '../../db/schema.ts';
import { Issues, NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import { findItemTypeOrFail } from '../item-types/read-item-types.ts';
import { checkRoomFor } from '../limits.ts';
import { checkNewId } from '../new-ids.ts';
import { loadGroup, storeGroup } from '../positions/group-store.ts';
import { type GroupKey, withInserted, without } from '../positions/order.ts';
import { moveMember, placeNew } from '../positions/placement.ts';
import { emitModelUpdate, loadModelState, modelView } from '../schema/model-state.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import type { FieldsetInput } from './attributes.ts';
import { applyFieldsetAttributes, blankFieldset, checkFieldset } from './rules.ts';

function topLevelOf(itemTypeId: string): GroupKey {
  return { itemTypeId, fieldsetId: null };
}

async function findFieldsetOrFail(db: EnvQueryable, id: string): Promise<FieldsetRow> {
  const row = await db.selectFrom('fieldsets').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Fieldset', id);
  return row;
}

export async function listFieldsets(scope: Scope, itemTypeIdOrKey: string): Promise<FieldsetRow[]> {
  const itemType = await findItemTypeOrFail(scope.db, itemTypeIdOrKey);
  const rows = await scope.db
    .selectFrom('fieldsets')
    .selectAll()
    .where('item_type_id', '=', itemType.id)
    .orderBy('position')
    .orderBy('seq')
    .execute();
  return rows;
}

export async function findFieldset(scope: Scope, id: string): Promise<FieldsetRow> {
  return await findFieldsetOrFail(scope.db, id);
}

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
