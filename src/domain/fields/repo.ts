import { sql } from 'kysely';
import type { EnvQueryable, EnvTrx } from '../../db/environment-scope.ts';
import { executePrepared, preparedShape } from '../../db/query/prepared.ts';
import { fromRowJson, type RowJson } from '../../db/query/row-json.ts';
import type { FieldRow, ItemTypeRow } from '../../db/schema.ts';
import { NotFound } from '../errors.ts';
import {
  FIELD_SUMMARIES_JSON,
  FIELDSET_SUMMARIES_JSON,
  type ModelState,
} from '../schema/model-state.ts';

/** A field row as the service builds it, before the database adds seq and created_at. */
export type FieldDraft = Omit<FieldRow, 'seq' | 'created_at'>;

/**
 * Finds a field by id or by `<model_api_key>::<field_api_key>`, the two
 * forms every /fields/{x} route accepts.
 */
export async function findField(db: EnvQueryable, idOrKey: string): Promise<FieldRow | null> {
  const separator = idOrKey.indexOf('::');
  const query = db
    .selectFrom('fields as f')
    .select(sql<RowJson<FieldRow>>`row_to_json(f.*)`.as('field'));
  const [row] = await executePrepared(
    db,
    separator === -1
      ? query.where('f.id', '=', idOrKey)
      : query
          .innerJoin('item_types as it', 'it.id', 'f.item_type_id')
          .where('it.api_key', '=', idOrKey.slice(0, separator))
          .where('f.api_key', '=', idOrKey.slice(separator + 2)),
  );
  return row ? fromRowJson(row.field) : null;
}

export async function findFieldOrFail(db: EnvQueryable, idOrKey: string): Promise<FieldRow> {
  const row = await findField(db, idOrKey);
  if (!row) throw new NotFound('Field', idOrKey);
  return row;
}

/** The field with its model's row and summaries (findFieldWithModel), unfiltered. */
function fieldWithModel(db: EnvQueryable) {
  return db
    .selectFrom('fields as f')
    .innerJoin('item_types as it', 'it.id', 'f.item_type_id')
    .select([
      sql<RowJson<ItemTypeRow>>`row_to_json(it.*)`.as('item_type'),
      sql<RowJson<FieldRow>>`row_to_json(f.*)`.as('field'),
      (eb) =>
        eb
          .selectFrom('fields as s')
          .select(FIELD_SUMMARIES_JSON.as('summaries'))
          .whereRef('s.item_type_id', '=', 'f.item_type_id')
          .as('field_summaries'),
      (eb) =>
        eb
          .selectFrom('fieldsets as g')
          .select(FIELDSET_SUMMARIES_JSON.as('summaries'))
          .whereRef('g.item_type_id', '=', 'f.item_type_id')
          .as('fieldset_summaries'),
    ]);
}

const fieldWithModelById = preparedShape((db: EnvQueryable, id: string) =>
  fieldWithModel(db).where('f.id', '=', id),
);
const fieldWithModelByKey = preparedShape((db: EnvQueryable, model: string, field: string) =>
  fieldWithModel(db).where('it.api_key', '=', model).where('f.api_key', '=', field),
);

/**
 * A field with its model's state, in one round trip on a prepared statement: the hot
 * path of every field update. `idOrKey` is a field id or `<model_api_key>::<field_api_key>`.
 * Rows come as row_to_json, whose one json column keeps the cached plan valid when a
 * migration adds columns.
 */
export async function findFieldWithModel(
  db: EnvQueryable,
  idOrKey: string,
): Promise<{ field: FieldRow; state: ModelState } | null> {
  const separator = idOrKey.indexOf('::');
  const [row] = await (separator === -1
    ? fieldWithModelById(db, idOrKey)
    : fieldWithModelByKey(db, idOrKey.slice(0, separator), idOrKey.slice(separator + 2)));
  if (!row) return null;
  return {
    field: fromRowJson(row.field),
    state: {
      itemType: fromRowJson(row.item_type),
      // An aggregate subquery always yields its one row; coalesce makes it '[]'.
      fields: row.field_summaries ?? [],
      fieldsets: row.fieldset_summaries ?? [],
    },
  };
}

function jsonColumns(draft: FieldDraft) {
  return {
    validators: JSON.stringify(draft.validators),
    appearance: JSON.stringify(draft.appearance),
    default_value: JSON.stringify(draft.default_value),
  };
}

/** The insert of a new field, not yet sent: sent on its own, or carried by the event's statement. */
export function fieldInsert(trx: EnvTrx, draft: FieldDraft) {
  return trx.insertInto('fields').values({ ...draft, ...jsonColumns(draft) });
}

const UPDATABLE_COLUMNS = [
  'fieldset_id',
  'label',
  'api_key',
  'field_type',
  'localized',
  'validators',
  'appearance',
  'position',
  'hint',
  'default_value',
  'deep_filtering_enabled',
  'content_link_enabled',
] as const;

/** The stored columns whose value differs between the two versions of a field. */
export function changedColumns(before: FieldRow, next: FieldDraft): string[] {
  return UPDATABLE_COLUMNS.filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(next[key]),
  );
}

/**
 * The update of a field's columns that changed (JSON columns are the costly part of a
 * field row), not yet sent: some must have changed (changedColumns).
 */
export function fieldUpdate(trx: EnvTrx, before: FieldRow, next: FieldDraft) {
  const json: Record<string, string> = jsonColumns(next);
  const changes = Object.fromEntries(
    changedColumns(before, next).map((key) => [key, json[key] ?? next[key as keyof FieldDraft]]),
  );
  return trx.updateTable('fields').set(changes).where('id', '=', next.id);
}

/**
 * The update of every stored column of a field, not yet sent: the same text whatever
 * changed, so a statement that carries it (the event's, emitEvent's LastWrites) is
 * prepared once per environment instead of planned on every call.
 */
export function fieldRowUpdate(trx: EnvTrx, next: FieldDraft) {
  const json: Record<string, string> = jsonColumns(next);
  const values = Object.fromEntries(
    UPDATABLE_COLUMNS.map((key) => [key, json[key] ?? next[key as keyof FieldDraft]]),
  );
  return trx.updateTable('fields').set(values).where('id', '=', next.id);
}

export async function deleteField(trx: EnvTrx, id: string): Promise<void> {
  await trx.deleteFrom('fields').where('id', '=', id).execute();
}
