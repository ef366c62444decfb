import type { EnvTrx, Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { FieldRow } from '../../db/schema.ts';
import { Issues } from '../errors.ts';
import { dropValueIndexes } from '../items/query/value-indexes.ts';
import { followFieldUpdate, reachesValues } from '../items/schema-changes/field-update.ts';
import { moveMember, type Placement } from '../positions/placement.ts';
import { siteLocales } from '../schema/locales.ts';
import {
  emitModelUpdate,
  fullFieldsInFormOrder,
  loadModelState,
  modelView,
} from '../schema/model-state.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import type { FieldInput } from './attributes.ts';
import { checkDefinition } from './check-context.ts';
import { fieldWithModelAtEntry } from './field-at-entry.ts';
import { groupOf } from './field-group.ts';
import type { FieldChange } from './field-view.ts';
import { releasedRelationships, releaseRelationships } from './model-links.ts';
import * as repo from './repo.ts';
import {
  applyFieldInput,
  checkFieldAttributes,
  checkLabelClash,
  definitionOf,
  touchesDefinition,
  updatedDefinition,
} from './rules.ts';

export async function updateField(
  scope: Scope,
  idOrKey: string,
  input: FieldInput,
): Promise<FieldChange> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      const { field: before, state } = await fieldWithModelAtEntry(tx, idOrKey);
      const a = input.attributes;
      const definitionTouched = touchesDefinition(a);
      const locales = definitionTouched ? await siteLocales(trx) : [];
      const previous = modelView(state);
      const siblings = state.fields.filter((field) => field.id !== before.id);
      const issues = new Issues('Field');
      const current = definitionOf(before);
      const requested = definitionTouched
        ? updatedDefinition(issues, current, a, locales)
        : current;
      const draft = applyFieldInput(before, input, requested ?? current);
      checkFieldAttributes(issues, draft, a, {
        isCreate: false,
        siblings,
        fieldsetIds: new Set(state.fieldsets.map((fieldset) => fieldset.id)),
      });
      const definition =
        requested && definitionTouched
          ? await checkDefinition(trx, issues, state, before.id, requested, locales)
          : current;
      issues.throwIfAny();
      if (a.label !== undefined && a.label !== before.label) checkLabelClash(draft, siblings);

      const next: repo.FieldDraft = { ...draft, ...definition };
      const placement = await moveIfAsked(trx, before, draft, a.position);
      const moves = placement !== null;
      if (placement) next.position = placement.position;
      if (repo.changedColumns(before, next).length === 0)
        return { field: before, model: previous, shifted: [] };

      const row: FieldRow = { ...before, ...next };
      const released = releasedRelationships(state.itemType, row.id, row.field_type);
      // A move reads the model after the update; a new type, localization or validators
      // rewrite records; a released relationship writes the model. Otherwise (a hint, a
      // label, an appearance…) the field's row is the only write, which nothing reads
      // before the event: the event's statement carries it, writing the whole row so that
      // its text, and the prepared statement, are the same whatever changed.
      const onlyTheRow =
        !moves && !reachesValues(before, row) && Object.keys(released).length === 0;
      if (!onlyTheRow) {
        await repo.fieldUpdate(trx, before, next).execute();
        await followFieldUpdate(trx, before, row);
        // A new type or localization leaves an index of the old values useless.
        if (before.field_type !== row.field_type || before.localized !== row.localized)
          await dropValueIndexes(tx, [row.id]);
      }
      // No statement when nothing is released.
      const itemType = await releaseRelationships(trx, state.itemType, released);
      const after =
        moves || itemType !== state.itemType ? await loadModelState(trx, row.item_type_id) : null;
      const model = after ? modelView(after) : previous;
      await emitModelUpdate(
        tx,
        previous,
        model,
        onlyTheRow ? { writes: [repo.fieldRowUpdate(trx, next)] } : undefined,
      );
      const shiftedIds = new Set(
        (placement?.shifted ?? [])
          .filter((member) => member.kind === 'field')
          .map((member) => member.id),
      );
      const shiftedFields =
        after && shiftedIds.size > 0 ? await fullFieldsInFormOrder(trx, after, shiftedIds) : [];
      return { field: row, model, shifted: shiftedFields };
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/** A new fieldset, or a new position, moves the field; null when neither was asked. */
async function moveIfAsked(
  trx: EnvTrx,
  before: FieldRow,
  draft: repo.FieldDraft,
  position: number | undefined,
): Promise<Placement | null> {
  const moves =
    draft.fieldset_id !== before.fieldset_id ||
    (position !== undefined && position !== before.position);
  if (!moves) return null;
  return moveMember(
    trx,
    { kind: 'field', id: before.id, position: before.position },
    groupOf(before),
    groupOf(draft),
    position,
  );
}
