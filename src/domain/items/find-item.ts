import type { EnvQueryable, Scope, ScopedTransaction } from '../../db/environment-scope.ts';
import type { ItemRow } from '../../db/schema.ts';
import { viewedOnce } from '../caches/caches.ts';
import { NotFound } from '../errors.ts';
import { valuesToShow } from './blocks/block-snapshots.ts';
import { recordAndContext, recordToChange } from './record-context.ts';
import { type RecordView, recordView, withTreeMeta } from './record-view.ts';

export async function findRow(db: EnvQueryable, id: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A record to change, its context and its creator (recordToChange), or NotFound. */
export async function findRecordOrFail(tx: ScopedTransaction, id: string) {
  const found = await recordToChange(tx, id);
  if (!found) throw new NotFound('Item', id);
  return found;
}

export async function findItem(
  scope: Scope,
  id: string,
  options: { version?: string; nested?: boolean } = {},
): Promise<RecordView> {
  const found = await recordAndContext(scope, id);
  if (!found) throw new NotFound('Item', id);
  const {
    row,
    context: { model, fields },
  } = found;
  const published = options.version === 'published';
  if (published && row.published_values === null)
    throw new NotFound('Published version of item', id);
  const nested = options.nested ?? false;
  const view = async () => {
    const [shown] = await valuesToShow(scope.db, [{ ...row, fields }], { published, nested });
    return withTreeMeta(scope.db, recordView(row, model, fields, shown?.values, shown?.blocks));
  };
  // With its blocks inline a record is as large as its blocks make it: never kept. Without,
  // it is about the size of the row, which the record cache keeps only when small. A tree
  // record's view says whether other records name it as parent, which its row does not
  // hold: a kept row serves across writes to other records (by its stamp), its view not.
  if (nested || model.tree) return view();
  return viewedOnce(scope, row, published ? 'published' : 'current', view);
}
