import type { ScopedTransaction } from '../../db/environment-scope.ts';
import type { FieldRow } from '../../db/schema.ts';
import { cachedSchemaRead } from '../caches/caches.ts';
import { NotFound } from '../errors.ts';
import type { ModelState } from '../schema/model-state.ts';
import * as repo from './repo.ts';

/**
 * A field with its model's state, as a change reads it first: from the schema cache at the
 * version read under the lock when kept (ScopedTransaction's `atEntry`), else loaded in one
 * statement and kept. Frozen: a change copies what it alters.
 */
export async function fieldWithModelAtEntry(
  tx: ScopedTransaction,
  idOrKey: string,
): Promise<{ field: FieldRow; state: ModelState }> {
  return cachedSchemaRead(tx, `field-state:${idOrKey}`, async () => {
    const found = await repo.findFieldWithModel(tx.db, idOrKey);
    if (!found) throw new NotFound('Field', idOrKey);
    return found;
  });
}
