import type { Scope } from '../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../db/environment-transaction.ts';
import type { FieldRow, FieldsetRow } from '../../db/schema.ts';
import { DomainError, Issues, NotFound } from '../errors.ts';
import { findItemTypeOrFail } from '../item-types/read-item-types.ts';
import { loadGroup, storeGroup } from '../positions/group-store.ts';
import type { MemberKind, Placed } from '../positions/order.ts';
import { layoutGroups, type ReorderRequest } from '../positions/reorder.ts';
import {
  emitModelUpdate,
  fullFieldsInFormOrder,
  loadModelState,
  modelView,
} from '../schema/model-state.ts';

/** A field or a fieldset of a model, as a reorder answers it. */
export type SchemaMember =
  | { kind: 'field'; field: FieldRow }
  | { kind: 'fieldset'; fieldset: FieldsetRow };

/** One entry of the request; fieldsetId undefined keeps a field in its fieldset. */
export type ReorderEntry = {
  type: string;
  id: string;
  position: number;
  fieldsetId?: string | null;
};

function checkEntries(entries: readonly ReorderEntry[]): void {
  const listed = new Set<string>();
  entries.forEach((entry, index) => {
    if (entry.type !== 'field' && entry.type !== 'fieldset') {
      throw new DomainError('INVALID_TYPE', 'data[].type must be "field" or "fieldset"', {
        expected: ['field', 'fieldset'],
        actual: entry.type,
      });
    }
    if (entry.type === 'fieldset' && entry.fieldsetId !== undefined) {
      const message = `/data/${index}/relationships: a fieldset cannot be put in a fieldset`;
      throw new DomainError('INVALID_FORMAT', message, { messages: [message] });
    }
    if (listed.has(entry.id)) {
      const message = `/data/${index}/id: ${entry.id} is listed twice`;
      throw new DomainError('INVALID_FORMAT', message, { messages: [message] });
    }
    listed.add(entry.id);
  });
}

/**
 * Places many fields and fieldsets of one model at once. Listed members
 * take their slots; the others keep their order around them. Two members of one
 * group on the same slot → DUPLICATE_POSITIONS_FOUND. Returns the listed members.
 */
export async function reorderFieldsAndFieldsets(
  scope: Scope,
  itemTypeIdOrKey: string,
  entries: ReorderEntry[],
): Promise<SchemaMember[]> {
  checkEntries(entries);
  return inEnvironmentTransaction(scope, async (tx) => {
    const trx = tx.db;
    const itemType = await findItemTypeOrFail(trx, itemTypeIdOrKey);
    const state = await loadModelState(trx, itemType.id);
    const kinds = new Map<string, { kind: MemberKind; fieldsetId: string | null }>([
      ...state.fieldsets.map((f) => [f.id, { kind: 'fieldset', fieldsetId: null }] as const),
      ...state.fields.map((f) => [f.id, { kind: 'field', fieldsetId: f.fieldset_id }] as const),
    ]);
    const fieldsetIds = new Set(state.fieldsets.map((fieldset) => fieldset.id));
    const issues = new Issues('Field');
    const requests: ReorderRequest[] = entries.map((entry) => {
      const known = kinds.get(entry.id);
      if (!known || known.kind !== entry.type) throw new NotFound(entry.type, entry.id);
      const fieldsetId = entry.fieldsetId === undefined ? known.fieldsetId : entry.fieldsetId;
      if (fieldsetId !== null && !fieldsetIds.has(fieldsetId))
        issues.add('fieldset', 'VALIDATION_INVALID', 'must be a fieldset of the same model');
      return { member: { kind: known.kind, id: entry.id }, fieldsetId, position: entry.position };
    });
    issues.throwIfAny();

    const keys = [null, ...state.fieldsets.map((fieldset) => fieldset.id)];
    const groups = new Map<string | null, Placed[]>();
    for (const fieldsetId of keys) {
      groups.set(fieldsetId, await loadGroup(trx, { itemTypeId: itemType.id, fieldsetId }));
    }
    const layout = layoutGroups(groups, requests);
    // Members leaving a group are written by the group they join.
    for (const [fieldsetId, order] of layout) {
      const key = { itemTypeId: itemType.id, fieldsetId };
      await storeGroup(trx, key, groups.get(fieldsetId) ?? [], order);
    }

    const after = await loadModelState(trx, itemType.id);
    await emitModelUpdate(tx, modelView(state), modelView(after));
    const listed = new Set(entries.map((entry) => entry.id));
    const [fieldRows, fieldsetRows] = await Promise.all([
      fullFieldsInFormOrder(trx, after, listed),
      trx.selectFrom('fieldsets').selectAll().where('item_type_id', '=', itemType.id).execute(),
    ]);
    const fields = new Map(
      fieldRows.map((field): [string, SchemaMember] => [field.id, { kind: 'field', field }]),
    );
    const fieldsets = new Map(
      fieldsetRows.map((fieldset): [string, SchemaMember] => [
        fieldset.id,
        { kind: 'fieldset', fieldset },
      ]),
    );
    return entries.flatMap((entry) => fields.get(entry.id) ?? fieldsets.get(entry.id) ?? []);
  });
}
