import { sql } from 'kysely';
import type { EnvQueryable, ScopedTransaction } from '../../db/environment-scope.ts';
import { preparedShape } from '../../db/prepared.ts';
import { fromRowJson, type RowJson } from '../../db/row-json.ts';
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

/** The summaries of a model's fields, as json, from `fields as s` in a subquery. */
export const FIELD_SUMMARIES_JSON = sql<FieldSummary[]>`coalesce(json_agg(json_build_object(
  'id', s.id, 'item_type_id', s.item_type_id, 'fieldset_id', s.fieldset_id,
  'position', s.position, 'field_type', s.field_type, 'api_key', s.api_key,
  'label', s.label) ORDER BY s.position, s.seq), '[]')`;

/** The summaries of a model's fieldsets, as json, from `fieldsets as g` in a subquery. */
export const FIELDSET_SUMMARIES_JSON = sql<ModelState['fieldsets']>`coalesce(json_agg(
  json_build_object('id', g.id, 'item_type_id', g.item_type_id, 'position', g.position)
  ORDER BY g.position, g.seq), '[]')`;

/** Each model with the summaries of its fields and fieldsets; the model row as row_to_json. */
function modelStates(db: EnvQueryable) {
  return db
    .selectFrom('item_types as it')
    .select([
      'it.id',
      sql<RowJson<ItemTypeRow>>`row_to_json(it.*)`.as('item_type'),
      (eb) =>
        eb
          .selectFrom('fields as s')
          .select(FIELD_SUMMARIES_JSON.as('summaries'))
          .whereRef('s.item_type_id', '=', 'it.id')
          .as('field_summaries'),
      (eb) =>
        eb
          .selectFrom('fieldsets as g')
          .select(FIELDSET_SUMMARIES_JSON.as('summaries'))
          .whereRef('g.item_type_id', '=', 'it.id')
          .as('fieldset_summaries'),
    ]);
}

// Model states by id, by id or api_key, or all of them: each a prepared statement of its
// own, built once per environment.
const statesById = preparedShape((db: EnvQueryable, id: string) =>
  modelStates(db).where('it.id', '=', id),
);
const statesByIdOrApiKey = preparedShape((db: EnvQueryable, key: string) =>
  modelStates(db).where((eb) => eb.or([eb('it.id', '=', key), eb('it.api_key', '=', key)])),
);
const allStates = preparedShape((db: EnvQueryable) => modelStates(db).orderBy('it.seq'));

async function selectModelStates(
  db: EnvQueryable,
  by: 'id' | 'idOrApiKey' | 'all',
  key = '',
): Promise<(ModelState & { id: string })[]> {
  const rows = await (by === 'all'
    ? allStates(db)
    : by === 'id'
      ? statesById(db, key)
      : statesByIdOrApiKey(db, key));
  return rows.map((row) => ({
    id: row.id,
    itemType: fromRowJson(row.item_type),
    // An aggregate subquery always yields its one row; coalesce makes it '[]'.
    fields: row.field_summaries ?? [],
    fieldsets: row.fieldset_summaries ?? [],
  }));
}

export async function loadModelState(db: EnvQueryable, itemTypeId: string): Promise<ModelState> {
  const [state] = await selectModelStates(db, 'id', itemTypeId);
  if (!state) throw new NotFound('Item type', itemTypeId);
  return state;
}

/** Every model's state, in creation order. */
export async function listModelStates(db: EnvQueryable): Promise<ModelState[]> {
  return selectModelStates(db, 'all');
}

/** The state of the model with this id or, failing that, this api_key. */
export async function findModelState(db: EnvQueryable, idOrApiKey: string): Promise<ModelState> {
  const states = await selectModelStates(db, 'idOrApiKey', idOrApiKey);
  const state = states.find((candidate) => candidate.id === idOrApiKey) ?? states[0];
  if (!state) throw new NotFound('Item type', idOrApiKey);
  return state;
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
