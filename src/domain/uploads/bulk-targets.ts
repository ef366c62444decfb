import type { ScopedTransaction } from '../../db/environment-scope.ts';
import { DomainError } from '../errors.ts';
import { lockUploadRows } from './repo.ts';
import { type Upload, uploadFromRow } from './upload.ts';

/** How many uploads one bulk operation may name: its work is bounded by it. */
export const MAX_BULK_UPLOADS = 500;

/** What a bulk operation's job reports. All-or-nothing: `failed` is always 0 on success. */
export type BulkOutcome = Readonly<{ successful: number; failed: number }>;

/**
 * The uploads a bulk operation names, locked for its transaction. None, more than 500 or
 * any unknown id refuses the whole operation before anything changes.
 */
export async function lockedBulkTargets(
  tx: ScopedTransaction,
  ids: readonly string[],
): Promise<Upload[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0)
    throw new DomainError('MISSING_UPLOAD_IDS', 'relationships.uploads names no upload');
  if (unique.length > MAX_BULK_UPLOADS) {
    throw new DomainError(
      'INVALID_RELATIONSHIP',
      `relationships.uploads names more than ${MAX_BULK_UPLOADS} uploads`,
      { relationship: 'uploads', reason: 'too many', max: MAX_BULK_UPLOADS },
    );
  }
  const rows = await lockUploadRows(tx.db, unique);
  if (rows.length < unique.length) {
    const found = new Set(rows.map((row) => row.id));
    throw new DomainError('INVALID_RELATIONSHIP', 'relationships.uploads names unknown uploads', {
      relationship: 'uploads',
      reason: 'not found',
      ids: unique.filter((id) => !found.has(id)),
    });
  }
  return rows.map(uploadFromRow);
}
