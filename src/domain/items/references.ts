import { sql } from 'kysely';
import type { Scope } from '../../db/environment-scope.ts';
import { NotFound } from '../errors.ts';
import { findRow } from './find-item.ts';
import { fieldsOfModels } from './model-fields.ts';
import { type RecordView, recordView } from './record-view.ts';

// Link fields hold ids as JSON strings, at any depth (localized values, link lists,
// structured-text links): a record references another when some string in its values
// equals that id. Record ids are random 22-character strings, so a text value equal to
// one is not a concern worth a per-field walk.
const HOLDS_ID = '$.** ? (@ == $id)';

/** The records whose current values (or blocks) link to this record. */
export async function itemReferences(scope: Scope, id: string): Promise<RecordView[]> {
  if (!(await findRow(scope.db, id))) throw new NotFound('Item', id);
  const holdsId = sql<boolean>`jsonb_path_exists(item_values, ${HOLDS_ID}::jsonpath, jsonb_build_object('id', ${id}::text))`;
  const rows = await scope.db
    .selectFrom('items')
    .selectAll()
    .where('id', '!=', id)
    .where((eb) =>
      eb.or([
        holdsId,
        // A record also references what its blocks link to (its blocks are its content).
        eb('id', 'in', eb.selectFrom('blocks').select('item_id').where(holdsId)),
      ]),
    )
    .orderBy('seq')
    .execute();
  const modelIds = [...new Set(rows.map((row) => row.item_type_id))];
  if (modelIds.length === 0) return [];
  const [models, fields] = await Promise.all([
    scope.db.selectFrom('item_types').selectAll().where('id', 'in', modelIds).execute(),
    fieldsOfModels(scope.db, modelIds),
  ]);
  const modelById = new Map(models.map((model) => [model.id, model]));
  return rows.flatMap((row) => {
    const model = modelById.get(row.item_type_id);
    return model ? [recordView(row, model, fields.get(row.item_type_id) ?? [])] : [];
  });
}
