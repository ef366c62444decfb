import { type RawBuilder, sql } from 'kysely';
import type { Scope } from '../../db/environment-scope.ts';
import type { Actor } from '../actor.ts';
import { valuesToShow } from '../items/blocks/block-snapshots.ts';
import { fieldsOfModels } from '../items/model-fields.ts';
import { type RecordView, recordView, withTreeMeta } from '../items/record-view.ts';
import { readUpload } from './find-upload.ts';

/** Which version of a record must name the upload (the client's `version` parameter). */
export type ReferencesVersion = 'current' | 'published' | 'published-or-current';

/**
 * Whether values name the upload: the expression the GIN indexes of environment migration
 * 0016 are built on, so each test is an index lookup rather than a walk of every record.
 */
function names(column: 'item_values' | 'published_values', uploadId: string): RawBuilder<boolean> {
  return sql<boolean>`public.fieldhouse_upload_ids(${sql.ref(column)}) @> ${JSON.stringify([uploadId])}::jsonb`;
}

/**
 * The records whose current values (their blocks' included) or published values (which hold
 * their blocks inline) name the upload in a file, gallery or SEO value, at any depth and in
 * any locale, in creation order. NOT_FOUND for an unknown upload; the role must be allowed
 * to read it. Which of the records the role may read is the caller's to filter.
 */
export async function uploadReferences(
  scope: Scope,
  actor: Actor,
  uploadId: string,
  options: { version: ReferencesVersion; nested: boolean },
): Promise<RecordView[]> {
  await readUpload(scope, actor, uploadId);
  const current = options.version !== 'published';
  const published = options.version !== 'current';
  const rows = await scope.db
    .selectFrom('items')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...(current
          ? [
              names('item_values', uploadId),
              eb(
                'id',
                'in',
                eb.selectFrom('blocks').select('item_id').where(names('item_values', uploadId)),
              ),
            ]
          : []),
        ...(published
          ? [eb.and([eb('published_values', 'is not', null), names('published_values', uploadId)])]
          : []),
      ]),
    )
    .orderBy('seq')
    .execute();
  if (rows.length === 0) return [];
  const modelIds = [...new Set(rows.map((row) => row.item_type_id))];
  const [models, fieldsByModel] = await Promise.all([
    scope.db.selectFrom('item_types').selectAll().where('id', 'in', modelIds).execute(),
    fieldsOfModels(scope.db, modelIds),
  ]);
  const modelById = new Map(models.map((model) => [model.id, model]));
  const records = rows.map((row) => ({
    ...row,
    fields: fieldsByModel.get(row.item_type_id) ?? [],
  }));
  const shown = await valuesToShow(scope.db, records, {
    published: options.version === 'published',
    nested: options.nested,
  });
  const views = records.flatMap((record, index) => {
    const model = modelById.get(record.item_type_id);
    return model
      ? [recordView(record, model, record.fields, shown[index]?.values, shown[index]?.blocks)]
      : [];
  });
  return withTreeMeta(scope.db, views);
}
