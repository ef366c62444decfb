import { type Kysely, sql } from 'kysely';

/**
 * Runs `work` in a read transaction whose statements PostgreSQL cancels once they have run
 * `ms` milliseconds (`SET LOCAL` ends with the transaction, so the pooled connection goes
 * back unchanged). The embedded engine cannot interrupt itself: there, what `work` sends
 * must already be bounded.
 */
export async function withStatementTimeout<Database, T>(
  db: Kysely<Database>,
  ms: number,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = ${sql.lit(ms)}`.execute(trx);
    return work(trx);
  });
}

/** Whether a statement failed because the statement timeout cancelled it. */
export function isStatementTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '57014';
}
