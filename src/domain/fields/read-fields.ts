import type { Scope } from '../../db/environment-scope.ts';
import { cachedSchemaRead } from '../caches/caches.ts';
import { findItemTypeOrFail } from '../item-types/read-item-types.ts';
import { findModelState, fullFieldsInFormOrder, loadModelState } from '../schema/model-state.ts';
import { fieldsReferencing, LINK_VALIDATORS } from '../schema/references.ts';
import type { FieldView } from './field-view.ts';
import * as repo from './repo.ts';

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
