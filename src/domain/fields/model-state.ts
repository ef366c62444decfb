import type { EnvQueryable, ScopedTransaction } from '../../db/environment-scope.ts';
import type { FieldRow, FieldsetRow, ItemTypeRow } from '../../db/schema.ts';
import { emitEvent } from '../../events/outbox.ts';
import { presentItemType } from '../../presenters/item-type.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import { NotFound } from '../errors.ts';
import { arrangeChildren } from '../item-types/repo.ts';

/** What field rules and the model's presentation read of each field. */
export type FieldSummary = Pick<
  FieldRow,
  'id' | 'item_type_id' | 'fieldset_id' | 'position' | 'field_type' | 'api_key' | 'label'
>;

/**
 * A model with a summary of its fields and its fieldsets: what field and fieldset
 * changes check against. Summaries, because decoding every field's JSON columns
 * would dominate the cost of a field update.
 */
export type ModelState = {
  itemType: ItemTypeRow;
  fields: FieldSummary[];
  fieldsets: Pick<FieldsetRow, 'id' | 'item_type_id' | 'position'>[];
};

export async function loadModelState(db: EnvQueryable, itemTypeId: string): Promise<ModelState> {
  const [itemType, fields, fieldsets] = await Promise.all([
    db.selectFrom('item_types').selectAll().where('id', '=', itemTypeId).executeTakeFirst(),
    db
      .selectFrom('fields')
      .select(['id', 'item_type_id', 'fieldset_id', 'position', 'field_type', 'api_key', 'label'])
      .where('item_type_id', '=', itemTypeId)
      .orderBy('position')
      .orderBy('seq')
      .execute(),
    db
      .selectFrom('fieldsets')
      .select(['id', 'item_type_id', 'position'])
      .where('item_type_id', '=', itemTypeId)
      .orderBy('position')
      .orderBy('seq')
      .execute(),
  ]);
  if (!itemType) throw new NotFound('Item type', itemTypeId);
  return { itemType, fields, fieldsets };
}

/** The model as the item-type API presents it, fields in form order. */
export function presentModel(state: ModelState): Resource {
  const children = arrangeChildren(state, [state.itemType.id]).get(state.itemType.id);
  return presentItemType(state.itemType, children ?? { fieldIds: [], fieldsetIds: [] });
}

/** Full rows of these fields of the model, in form order (the order of `state`). */
export async function fullFieldsInFormOrder(
  db: EnvQueryable,
  state: ModelState,
  only?: ReadonlySet<string>,
): Promise<FieldRow[]> {
  const ids = (
    arrangeChildren(state, [state.itemType.id]).get(state.itemType.id)?.fieldIds ?? []
  ).filter((id) => !only || only.has(id));
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('fields').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Any change to a model's fields or fieldsets is an update of the model (spec 02 §10). */
export async function emitModelUpdate(
  tx: ScopedTransaction,
  previous: Resource,
  entity: Resource,
): Promise<void> {
  await emitEvent(tx, {
    entityType: 'item_type',
    eventType: 'update',
    entity,
    previousEntity: previous,
  });
}
