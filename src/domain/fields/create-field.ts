import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { Issues } from '../errors.ts';
import { generateId } from '../ids.ts';
import { checkRoomFor } from '../limits.ts';
import { checkNewId } from '../new-ids.ts';
import { placeNewIn } from '../positions/placement.ts';
import { findNewFieldContext, groupIn } from '../schema/model-state.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import { addField } from './add-field.ts';
import type { NewFieldInput } from './attributes.ts';
import { checkDefinition } from './check-context.ts';
import { groupOf } from './field-group.ts';
import type { FieldChange } from './field-view.ts';
import type * as repo from './repo.ts';
import {
  applyFieldInput,
  checkFieldAttributes,
  checkLabelClash,
  definitionOf,
  newDefinition,
} from './rules.ts';

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
