import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import { checkApiKey } from '../api-key.ts';
import { Issues } from '../errors.ts';
import { generateId } from '../ids.ts';
import { checkRoomFor } from '../limits.ts';
import { placeAfterIn } from '../positions/placement.ts';
import { findNewFieldContext, groupIn } from '../schema/model-state.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import { addField } from './add-field.ts';
import { groupOf } from './field-group.ts';
import type { FieldChange } from './field-view.ts';
import * as repo from './repo.ts';
import { freeCopyNumber } from './rules.ts';

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
