import { excludeRecordKeys } from '../../../db/environment-locks.ts';
import type { EnvQueryable } from '../../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../../db/schema.ts';

/**
 * What a record change must exclude beyond the record it writes (which its first read
 * locks: recordToChange). Record changes to an environment run concurrently (RECORD_CHANGE
 * takes its lock shared), so a change that checks something and then writes what the check
 * allowed names it here first, and a concurrent change naming the same thing waits for it
 * to commit, then checks afresh (src/db/README.md).
 */

/** A record id the client chose: a concurrent create of the same id then finds it taken. */
export function excludeNewRecordId(db: EnvQueryable, id: string | undefined): Promise<void> {
  return excludeRecordKeys(db, id === undefined ? [] : [`record-id:${id}`]);
}

/** A singleton model's one record: its create checks that none exists, its destroy unlinks it. */
export function excludeSingleton(
  db: EnvQueryable,
  model: Pick<ItemTypeRow, 'id' | 'singleton'>,
): Promise<void> {
  return excludeRecordKeys(db, model.singleton ? [`singleton:${model.id}`] : []);
}

/**
 * The positions of a sortable or tree model's records: a change that places, moves or
 * removes one shifts its siblings, reading the positions it shifts.
 */
export function excludePlacement(
  db: EnvQueryable,
  model: Pick<ItemTypeRow, 'id' | 'sortable' | 'tree'>,
): Promise<void> {
  return excludeRecordKeys(db, model.sortable || model.tree ? [`positions:${model.id}`] : []);
}
