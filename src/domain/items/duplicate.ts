import { inEnvironmentTransaction, RECORD_CHANGE, type Scope } from '../../db/environment-scope.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import type { CallerToken } from '../actor.ts';
import type { ModelView } from '../fields/model-state.ts';
import { findItemType } from '../item-types/service.ts';
import type { ItemField } from './model-fields.ts';
import type { RecordGate } from './record-gate.ts';
import { createInTransaction, findItem, findRecordOrFail } from './service.ts';
import { valueTaken } from './values.ts';

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
 * A block as a create takes a new one: its nested content without ids (blocks inside
 * blocks too), so the copy gets blocks of its own instead of naming the original's.
 */
function freshBlocks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(freshBlocks);
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const relationships = object.relationships as Record<string, unknown> | undefined;
  if (object.type === 'item' && relationships?.item_type)
    return {
      type: 'item',
      attributes: freshBlocks(object.attributes ?? {}),
      relationships: { item_type: relationships.item_type },
    };
  return Object.fromEntries(
    Object.entries(object).map(([key, inner]) => [key, freshBlocks(inner)]),
  );
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
): Promise<{ record: Resource; model: ModelView }> {
  return inEnvironmentTransaction(
    scope,
    async (tx) => {
      const { row: original, context } = await findRecordOrFail(tx, id);
      await gate?.(tx, [id]);
      const nested = await findItem(tx, id, { nested: true });
      const attributes: Record<string, unknown> = {};
      for (const field of context.fields)
        attributes[field.api_key] = await copiedValue(
          tx,
          original.item_type_id,
          field,
          freshBlocks(nested.attributes[field.api_key] ?? null),
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
