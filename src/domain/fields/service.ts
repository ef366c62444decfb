import {
  type EnvTrx,
  inEnvironmentTransaction,
  type Scope,
  type ScopedTransaction,
} from '../../db/environment-scope.ts';
import type { FieldRow } from '../../db/schema.ts';
import { checkApiKey } from '../api-key.ts';
import { cachedSchemaRead } from '../caches/caches.ts';
import { Issues, NotFound } from '../errors.ts';
import { generateId } from '../ids.ts';
import { findOrFail as findItemTypeOrFail } from '../item-types/service.ts';
import {
  dropFieldValues,
  fillNewField,
  followFieldUpdate,
  reachesValues,
} from '../items/schema-changes/schema-changes.ts';
import { checkRoomFor } from '../limits.ts';
import { checkNewId } from '../new-ids.ts';
import type { GroupKey } from '../positions/order.ts';
import {
  moveMember,
  type Placement,
  placeAfterIn,
  placeNewIn,
  removeMemberIn,
} from '../positions/placement.ts';
import { checkFieldDefinition, type FieldDefinition } from '../schema/field-types/index.ts';
import { siteLocales } from '../schema/locales.ts';
import {
  emitModelUpdate,
  findModelState,
  findNewFieldContext,
  fullFieldsInFormOrder,
  groupIn,
  loadModelState,
  type ModelState,
  type ModelView,
  modelView,
  summaryOf,
  type ValueHolders,
  withNewField,
  withoutField,
} from '../schema/model-state.ts';
import { fieldsReferencing, LINK_VALIDATORS } from '../schema/references.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import type { FieldInput, NewFieldInput } from './attributes.ts';
import { loadCheckContext } from './check-context.ts';
import { refuseIfSlugSource, releasedRelationships, releaseRelationships } from './model-links.ts';
import * as repo from './repo.ts';
import {
  applyFieldInput,
  checkFieldAttributes,
  checkLabelClash,
  definitionOf,
  freeCopyNumber,
  newDefinition,
  touchesDefinition,
  updatedDefinition,
} from './rules.ts';

/** A field as stored, less what the database adds (a new field is shown before it is written). */
export type FieldView = Omit<FieldRow, 'seq' | 'created_at'>;

/** A changed field, with its model as the change left it and the fields it shifted. */
export type FieldChange = { field: FieldView; model: ModelView; shifted: FieldView[] };

function groupOf(field: Pick<FieldRow, 'item_type_id' | 'fieldset_id'>): GroupKey {
  return { itemTypeId: field.item_type_id, fieldsetId: field.fieldset_id };
}

export async function listFields(
  scope: Scope,
  itemTypeIdOrKey: string,
): Promise<readonly FieldView[]> {
  return cachedSchemaRead(scope, `fields-of:${itemTypeIdOrKey}`, async () => {
    const state = await findModelState(scope.db, itemTypeIdOrKey);
    return fullFieldsInFormOrder(scope.db, state);
  });
}

export async function findField(scope: Scope, idOrKey: string): Promise<FieldView> {
  return cachedSchemaRead(scope, `field:${idOrKey}`, () => repo.findFieldOrFail(scope.db, idOrKey));
}

/** Fields of any model whose validators name this model. */
export async function referencingFields(
  scope: Scope,
  itemTypeIdOrKey: string,
): Promise<FieldView[]> {
  const itemType = await findItemTypeOrFail(scope.db, itemTypeIdOrKey);
  return fieldsReferencing(scope.db, itemType.id);
}

/** The referencing fields, then this model's own fields that link to records. */
export async function relatedFields(scope: Scope, itemTypeIdOrKey: string): Promise<FieldView[]> {
  const itemType = await findItemTypeOrFail(scope.db, itemTypeIdOrKey);
  const [referencing, state] = await Promise.all([
    fieldsReferencing(scope.db, itemType.id),
    loadModelState(scope.db, itemType.id),
  ]);
  const links = (await fullFieldsInFormOrder(scope.db, state)).filter((field) =>
    LINK_VALIDATORS.some((name) => field.validators[name] !== undefined),
  );
  const seen = new Set(referencing.map((field) => field.id));
  return [...referencing, ...links.filter((field) => !seen.has(field.id))];
}

/**
 * A field with its model's state, as a change reads it first: from the schema cache at the
 * version read under the lock when kept (ScopedTransaction's `atEntry`), else loaded in one
 * statement and kept. Frozen: a change copies what it alters.
 */
async function fieldWithModelAtEntry(
  tx: ScopedTransaction,
  idOrKey: string,
): Promise<{ field: FieldRow; state: ModelState }> {
  return cachedSchemaRead(tx, `field-state:${idOrKey}`, async () => {
    const found = await repo.findFieldWithModel(tx.db, idOrKey);
    if (!found) throw new NotFound('Field', idOrKey);
    return found;
  });
}

/** Checks the definition against the registry when the request touched it. */
async function checkDefinition(
  trx: EnvTrx,
  issues: Issues,
  state: ModelState,
  fieldId: string,
  definition: FieldDefinition,
  locales: string[],
): Promise<FieldDefinition> {
  const context = await loadCheckContext(trx, state, fieldId, definition, locales);
  return checkFieldDefinition(issues, definition, context);
}

export async function createField(
  scope: Scope,
  itemTypeIdOrKey: string,
  input: NewFieldInput,
): Promise<FieldChange> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      const { state, locales, holders } = await findNewFieldContext(trx, itemTypeIdOrKey);
      const owner = state.itemType;
      checkRoomFor('fields_per_item_type', state.fields.length);
      const issues = new Issues('Field');
      await checkNewId(trx, issues, 'id', input.id, 'fields');
      const a = input.attributes;
      const blank = blankField(input.id ?? generateId(), owner.id, a.field_type);
      const draft = applyFieldInput(blank, input, newDefinition(a.field_type, a, locales));
      checkFieldAttributes(issues, draft, a, {
        isCreate: true,
        siblings: state.fields,
        fieldsetIds: new Set(state.fieldsets.map((fieldset) => fieldset.id)),
      });
      const definition = await checkDefinition(
        trx,
        issues,
        state,
        draft.id,
        definitionOf(draft),
        locales,
      );
      issues.throwIfAny();
      checkLabelClash(draft, state.fields);
      const group = groupOf(draft);
      const placement = await placeNewIn(
        trx,
        group,
        groupIn(state, group),
        { kind: 'field', id: draft.id },
        a.position,
      );
      return addField(
        tx,
        state,
        { ...draft, ...definition, position: placement.position },
        placement.shifted,
        holders,
      );
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/**
 * Writes a new field, placed (`shifted`: the siblings its placement moved), and its
 * model's update event. On a model with no records and no blocks nothing takes the
 * field's default, so its row goes in the event's statement (LastWrites); otherwise it
 * goes first, then the values that take its default (whose validity check reads it), then
 * the event.
 */
async function addField(
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

function blankField(id: string, itemTypeId: string, fieldType: string): repo.FieldDraft {
  return {
    id,
    item_type_id: itemTypeId,
    fieldset_id: null,
    label: '',
    api_key: '',
    field_type: fieldType,
    localized: false,
    validators: {},
    appearance: {},
    position: 0,
    hint: null,
    default_value: null,
    deep_filtering_enabled: false,
    content_link_enabled: true,
  };
}

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
    const model = modelView(withoutField({ ...state, itemType }, field.id, shifted));
    await emitModelUpdate(tx, modelView(state), model);
    return { field, model, shifted: [] };
  });
}

/**
 * Copies a field into the same model and fieldset, right after the original:
 * "<label> (copy #N)" and "<api_key>_copyN" with the smallest free N.
 */
export async function duplicateField(scope: Scope, idOrKey: string): Promise<FieldChange> {
  try {
    return await inEnvironmentTransaction(scope, async (tx) => {
      const trx = tx.db;
      const source = await repo.findFieldOrFail(trx, idOrKey);
      const { state, holders } = await findNewFieldContext(trx, source.item_type_id);
      checkRoomFor('fields_per_item_type', state.fields.length);
      const n = freeCopyNumber(source, state.fields);
      const { seq: _seq, created_at: _created, ...copy } = source;
      const draft: repo.FieldDraft = {
        ...copy,
        id: generateId(),
        label: `${source.label} (copy #${n})`,
        api_key: `${source.api_key}_copy${n}`,
      };
      const issues = new Issues('Field');
      checkApiKey(issues, draft.api_key, { taken: false });
      issues.throwIfAny();
      const group = groupOf(source);
      const placement = await placeAfterIn(
        trx,
        group,
        groupIn(state, group),
        { kind: 'field', id: draft.id },
        source.id,
      );
      const copied = { ...draft, position: placement.position };
      return addField(tx, state, copied, placement.shifted, holders);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}
