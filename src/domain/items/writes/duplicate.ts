import type { Scope } from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../../db/environment-transaction.ts';
import type { CallerToken } from '../../actor.ts';
import { MAX_NESTING_DEPTH } from '../../limits.ts';
import { withEmptyValues } from '../../schema/field-types/empty-values.ts';
import type { ModelView } from '../../schema/model-state.ts';
import { findItemType } from '../../schema/models.ts';
import type { RecordGate } from '../access/record-gate.ts';
import {
  type BlockHoldingField,
  type BlockModelFields,
  isBlockNode,
  mapValues,
} from '../blocks/block-values.ts';
import { findItem, findRecordOrFail } from '../find-item.ts';
import type { ItemField } from '../model-fields.ts';
import type { RecordView } from '../record-view.ts';
import { valueTaken } from '../values.ts';
import { createInTransaction } from './create-item.ts';

/** How a copy of a unique value is told apart: the n-th copy of it. */
const COPY_SUFFIX: Readonly<Record<string, (value: string, n: number) => string>> = {
  string: (value, n) => `${value} (copy${n > 1 ? ` ${n}` : ''})`,
  slug: (value, n) => `${value}-copy${n > 1 ? `-${n}` : ''}`,
};

/** Enough tries for any realistic number of copies; past it the create reports the clash. */
const MAX_COPY_NUMBER = 50;

function isUnique(field: ItemField): boolean {
  return Object.hasOwn((field.validators ?? {}) as object, 'unique');
}

/** The first copy of `value` that no record of the model holds at `path`. */
async function freeCopy(
  scope: Scope,
  itemTypeId: string,
  path: string[],
  value: string,
  suffix: (value: string, n: number) => string,
): Promise<string> {
  for (let n = 1; n < MAX_COPY_NUMBER; n++) {
    const candidate = suffix(value, n);
    if (!(await valueTaken(scope.db, itemTypeId, path, candidate))) return candidate;
  }
  return suffix(value, MAX_COPY_NUMBER);
}

/**
 * The copy's value of a `unique` string or slug field: the original with a copy suffix,
 * per locale when localized, so that the duplicate does not clash with its original.
 * Other unique values are copied as they are (the create then reports the clash).
 */
async function copiedValue(
  scope: Scope,
  itemTypeId: string,
  field: ItemField,
  value: unknown,
): Promise<unknown> {
  const suffix = COPY_SUFFIX[field.field_type];
  if (!suffix || !isUnique(field) || value === null) return value;
  if (!field.localized)
    return typeof value === 'string' && value !== ''
      ? freeCopy(scope, itemTypeId, [field.id], value, suffix)
      : value;
  const byLocale: Record<string, unknown> = {};
  for (const [locale, localeValue] of Object.entries(value as Record<string, unknown>))
    byLocale[locale] =
      typeof localeValue === 'string' && localeValue !== ''
        ? await freeCopy(scope, itemTypeId, [field.id, locale], localeValue, suffix)
        : localeValue;
  return byLocale;
}

/**
 * Values (by field id) with each inline block as a create takes a new one: its content
 * by api_key without ids (blocks inside blocks too), so the copy gets blocks of its own
 * instead of naming the original's. `depth`: the level of the values' holder (0: the
 * record); blocks past MAX_NESTING_DEPTH stay ids, as a nested read gives them.
 */
function freshBlocks(
  fields: readonly BlockHoldingField[],
  values: Record<string, unknown>,
  blockFields: BlockModelFields,
  depth = 0,
): Record<string, unknown> {
  return mapValues(fields, values, (node, _place, level) => {
    if (!isBlockNode(node)) return node;
    const at = depth + level;
    if (at > MAX_NESTING_DEPTH) return node.id;
    const inner = blockFields.get(node.item_type_id) ?? [];
    const fresh = freshBlocks(inner, node.values, blockFields, at);
    return {
      type: 'item',
      attributes: Object.fromEntries(
        inner.map((field) => [field.api_key, withEmptyValues(field, fresh[field.id])]),
      ),
      relationships: { item_type: { data: { type: 'item_type', id: node.item_type_id } } },
    };
  });
}

/**
 * `POST /items/{id}/duplicate`: a new record (new id, created by the caller) holding the
 * original's current values, made exactly as a create makes it — validated, a draft or
 * published per the model's draft mode, at the end of its siblings, with new blocks of
 * the same content, with its `create` event. A singleton's record cannot be duplicated
 * (ITEM_TYPE_IS_SINGLETON). The original is read, and `gate` judges the caller's
 * permission on it, in the create's transaction under the environment's lock: what is
 * judged and copied is the original as it is when the copy is made.
 */
export async function duplicateItem(
  scope: Scope,
  caller: CallerToken | null,
  id: string,
  gate?: RecordGate,
): Promise<{ record: RecordView; model: ModelView }> {
  return inEnvironmentTransaction(
    scope,
    async (tx) => {
      const { row: original, context } = await findRecordOrFail(tx, id);
      await gate?.(tx, [id]);
      const nested = await findItem(tx, id, { nested: true });
      const values = nested.blocks
        ? freshBlocks(context.fields, nested.values, nested.blocks.blockFields)
        : nested.values;
      const attributes: Record<string, unknown> = {};
      for (const field of context.fields)
        attributes[field.api_key] = await copiedValue(
          tx,
          original.item_type_id,
          field,
          withEmptyValues(field, values[field.id]),
        );
      if (original.parent_id !== null) attributes.parent_id = original.parent_id;
      const data = await createInTransaction(tx, caller, {
        itemType: original.item_type_id,
        attributes,
        meta: {},
      });
      return { record: data, model: await findItemType(tx, original.item_type_id) };
    },
    RECORD_CHANGE,
  );
}
