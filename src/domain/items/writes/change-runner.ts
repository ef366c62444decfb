import type { Scope, ScopedTransaction } from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../../db/environment-transaction.ts';
import { sendHeld } from '../../../db/query/pipelining-dialect.ts';
import type { RecordView } from '../record-view.ts';

/** Ends a validate-only change: everything it wrote is rolled back. */
class ValidatedOnly extends Error {
  constructor(readonly entity: RecordView) {
    super('validated only');
  }
}

/**
 * Runs a record change; with `validateOnly` it runs every check and write of the change,
 * then rolls it all back (the validate endpoints): the checks cannot drift from the writes.
 */
export async function runChange(
  scope: Scope,
  validateOnly: boolean,
  fn: (tx: ScopedTransaction) => Promise<RecordView>,
): Promise<RecordView> {
  try {
    return await inEnvironmentTransaction(
      scope,
      async (tx) => {
        const entity = await fn(tx);
        if (validateOnly) {
          // Its event's statement, which carries its last writes, runs too.
          await sendHeld(tx.project);
          throw new ValidatedOnly(entity);
        }
        return entity;
      },
      RECORD_CHANGE,
    );
  } catch (error) {
    if (error instanceof ValidatedOnly) return error.entity;
    throw error;
  }
}
