import { sql } from 'kysely';
import type { EnvQueryable, Scope, ScopedTransaction } from '../../db/environment-scope.ts';
import { preparedShape } from '../../db/query/prepared.ts';
import { fromRowJson, type RowJson } from '../../db/query/row-json.ts';
import type { FieldRow, FieldsetRow, ItemTypeRow } from '../../db/schema.ts';
import { emitEvent, type LastWrites } from '../../events/outbox.ts';
import { cachedSchemaRead } from '../caches/caches.ts';
import { NotFound } from '../errors.ts';
import { type GroupKey, type MemberKind, type Placed, sortGroup } from '../positions/order.ts';
import { arrangeChildren, type ItemTypeChildren } from './model-rows.ts';

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

type StateRow = {
  id: string;
  item_type: RowJson<ItemTypeRow>;
  field_summaries: FieldSummary[] | null;
  fieldset_summaries: ModelState['fieldsets'] | null;
};

function stateOf(row: StateRow): ModelState & { id: string } {
  return {
    id: row.id,
    itemType: fromRowJson(row.item_type),
    // An aggregate subquery always yields its one row; coalesce makes it '[]'.
    fields: row.field_summaries ?? [],
    fieldsets: row.fieldset_summaries ?? [],
  };
}

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
  return rows.map(stateOf);
}

/** The row with this id or, failing that, the one with this api_key. */
function pickByIdOrApiKey<Row extends { id: string }>(rows: Row[], idOrApiKey: string) {
  const row = rows.find((candidate) => candidate.id === idOrApiKey) ?? rows[0];
  if (!row) throw new NotFound('Item type', idOrApiKey);
  return row;
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
  return pickByIdOrApiKey(await selectModelStates(db, 'idOrApiKey', idOrApiKey), idOrApiKey);
}

/**
 * The state of the model with this id or api_key from the schema cache at the scope's
 * version (no statement when kept), else loaded and kept: for a request, and for a change's
 * first read (ScopedTransaction's `atEntry`), which a request's read at the same version
 * spares. Frozen: a change copies what it alters.
 */
export async function cachedModelState(
  scope: Scope | ScopedTransaction,
  idOrApiKey: string,
): Promise<ModelState> {
  return cachedSchemaRead(scope, `model-state:${idOrApiKey}`, () =>
    findModelState(scope.db, idOrApiKey),
  );
}

/** What adding a field to a model reads before it writes. */
/** Whether a model has records, and blocks, read in the transaction of the change. */
export type ValueHolders = { records: boolean; blocks: boolean };

export type NewFieldContext = { state: ModelState; locales: string[]; holders: ValueHolders };

// The model's state, the site's locales and whether the model has records or blocks (which
// a new field gives its default value): one round trip instead of three.
const newFieldContexts = preparedShape((db: EnvQueryable, key: string) =>
  modelStates(db)
    .select((eb) => [
      eb.selectFrom('site_settings').select('locales').as('locales'),
      eb
        .exists(eb.selectFrom('items as r').select('r.id').whereRef('r.item_type_id', '=', 'it.id'))
        .as('has_records'),
      eb
        .exists(
          eb.selectFrom('blocks as b').select('b.id').whereRef('b.item_type_id', '=', 'it.id'),
        )
        .as('has_blocks'),
    ])
    .where((eb) => eb.or([eb('it.id', '=', key), eb('it.api_key', '=', key)])),
);

/**
 * The context of a new field on the model with this id or api_key, read inside the change's
 * transaction: it holds the environment's lock, so no other change to the schema or the
 * records can commit before this one does, and what is read here stays true until then.
 */
export async function findNewFieldContext(
  db: EnvQueryable,
  idOrApiKey: string,
): Promise<NewFieldContext> {
  const row = pickByIdOrApiKey(await newFieldContexts(db, idOrApiKey), idOrApiKey);
  if (!row.locales) throw new Error('the environment has no site settings');
  return {
    state: stateOf(row),
    locales: row.locales,
    holders: { records: Boolean(row.has_records), blocks: Boolean(row.has_blocks) },
  };
}

/** The members of one of the model's groups (GroupKey), in display order. */
export function groupIn(state: ModelState, key: GroupKey): Placed[] {
  const fieldsets = key.fieldsetId === null ? state.fieldsets : [];
  return sortGroup([
    ...fieldsets.map(({ id, position }) => ({ kind: 'fieldset' as const, id, position })),
    ...state.fields
      .filter((field) => field.fieldset_id === key.fieldsetId)
      .map(({ id, position }) => ({ kind: 'field' as const, id, position })),
  ]);
}

/**
 * The state after a field was inserted and `shifted` siblings moved to make room: what a
 * new read would present. Within each group the order stays (position, then age): the
 * shifted siblings keep their order, none is left at the new field's position, and the new
 * field is the youngest.
 */
export function withNewField(
  state: ModelState,
  field: FieldSummary,
  shifted: readonly Placed[],
): ModelState {
  return withMoves({ ...state, fields: [...state.fields, field] }, shifted);
}

/**
 * The state after a field was deleted and `shifted` siblings moved up to close its gap:
 * what a new read would present (`itemType`: the model's row as the change left it).
 */
export function withoutField(
  state: ModelState,
  fieldId: string,
  shifted: readonly Placed[],
): ModelState {
  const fields = state.fields.filter((field) => field.id !== fieldId);
  return withMoves({ ...state, fields }, shifted);
}

/** The state with `shifted` members at their new positions, each list in position order. */
function withMoves(state: ModelState, shifted: readonly Placed[]): ModelState {
  const moved = (kind: MemberKind) =>
    new Map(shifted.filter((m) => m.kind === kind).map((m) => [m.id, m.position]));
  const movedFields = moved('field');
  const movedFieldsets = moved('fieldset');
  // Stable: members at the same position (in different groups) keep their order, by age.
  const byPosition = (a: { position: number }, b: { position: number }) => a.position - b.position;
  return {
    itemType: state.itemType,
    fields: state.fields
      .map((f) => ({ ...f, position: movedFields.get(f.id) ?? f.position }))
      .sort(byPosition),
    fieldsets: state.fieldsets
      .map((g) => ({ ...g, position: movedFieldsets.get(g.id) ?? g.position }))
      .sort(byPosition),
  };
}

/** The summary of a field row, as the model state holds it. */
export function summaryOf(field: FieldSummary): FieldSummary {
  const { id, item_type_id, fieldset_id, position, field_type, api_key, label } = field;
  return { id, item_type_id, fieldset_id, position, field_type, api_key, label };
}

/** A model with the ids of its fields (in form order) and fieldsets: what it shows. */
export type ModelView = {
  itemType: Omit<ItemTypeRow, 'seq' | 'created_at'>;
  children: ItemTypeChildren;
};

/** The model's view from its state, fields in form order. */
export function modelView(state: ModelState): ModelView {
  const children = arrangeChildren(state, [state.itemType.id]).get(state.itemType.id);
  return { itemType: state.itemType, children: children ?? { fieldIds: [], fieldsetIds: [] } };
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

/** Any change to a model's fields or fieldsets is an update of the model. */
export async function emitModelUpdate(
  tx: ScopedTransaction,
  previous: ModelView,
  model: ModelView,
  last?: LastWrites,
): Promise<void> {
  await emitEvent(tx, { entityType: 'item_type', eventType: 'update', model, previous }, last);
}
