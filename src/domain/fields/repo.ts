import type { FieldRow } from '../../db/schema.ts';
import type { Queryable, Trx } from '../../db/transaction.ts';
import { NotFound } from '../errors.ts';

/** A field row as the service builds it, before the database adds seq and created_at. */
export type FieldDraft = Omit<FieldRow, 'seq' | 'created_at'>;

/**
 * Finds a field by id or by `<model_api_key>::<field_api_key>` (spec 01 §5), the two
 * forms every /fields/{x} route accepts.
 */
export async function findField(db: Queryable, idOrKey: string): Promise<FieldRow | null> {
  const separator = idOrKey.indexOf('::');
  if (separator === -1) {
    return (
      (await db.selectFrom('fields').selectAll().where('id', '=', idOrKey).executeTakeFirst()) ??
      null
    );
  }
  const row = await db
    .selectFrom('fields')
    .innerJoin('item_types', 'item_types.id', 'fields.item_type_id')
    .selectAll('fields')
    .where('item_types.api_key', '=', idOrKey.slice(0, separator))
    .where('fields.api_key', '=', idOrKey.slice(separator + 2))
    .executeTakeFirst();
  return row ?? null;
}

export async function findFieldOrFail(db: Queryable, idOrKey: string): Promise<FieldRow> {
  const row = await findField(db, idOrKey);
  if (!row) throw new NotFound('Field', idOrKey);
  return row;
}

function jsonColumns(draft: FieldDraft) {
  return {
    validators: JSON.stringify(draft.validators),
    appearance: JSON.stringify(draft.appearance),
    default_value: JSON.stringify(draft.default_value),
  };
}

export async function insertField(trx: Trx, draft: FieldDraft): Promise<FieldRow> {
  return trx
    .insertInto('fields')
    .values({ ...draft, ...jsonColumns(draft) })
    .returningAll()
    .executeTakeFirstOrThrow();
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

/** Writes only the columns that changed: JSON columns are the costly part of a field row. */
export async function saveField(trx: Trx, before: FieldRow, next: FieldDraft): Promise<FieldRow> {
  const json: Record<string, string> = jsonColumns(next);
  const changes = Object.fromEntries(
    changedColumns(before, next).map((key) => [key, json[key] ?? next[key as keyof FieldDraft]]),
  );
  if (Object.keys(changes).length > 0) {
    await trx.updateTable('fields').set(changes).where('id', '=', next.id).execute();
  }
  return { ...before, ...next };
}

export async function deleteField(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('fields').where('id', '=', id).execute();
}
