import type { Scope } from '../../db/environment-scope.ts';
import type { ItemsWhere } from '../../domain/items/access/readable-records.ts';
import { META_COLUMNS, versionColumns } from './rows.ts';

/** What decides which records a request sees. */
export type Visibility = Readonly<{
  drafts: boolean;
  strict: boolean;
  readable: ItemsWhere | null;
}>;

/**
 * The records a request may see, as delivery rows: published ones (or every one with
 * drafts), valid ones in strict mode, those the role may read.
 */
export function visibleRows(scope: Scope, { drafts, strict, readable }: Visibility) {
  return scope.db
    .selectFrom('items')
    .select(META_COLUMNS)
    .select(versionColumns(drafts))
    .$if(!drafts, (query) => query.where('published_values', 'is not', null))
    .$if(strict, (query) => query.where(drafts ? 'current_valid' : 'published_valid', '=', true))
    .$if(readable !== null, (query) => query.where((eb) => (readable as ItemsWhere)(eb)));
}
