import type { Transaction } from 'kysely';
import type { Db } from './client.ts';
import type { ProjectDatabase } from './schema.ts';

export type Trx = Transaction<ProjectDatabase>;
/** Either the pool or an open transaction: read helpers accept both. */
export type Queryable = Db | Trx;

/** The name of the unique constraint a statement violated, or null for any other error. */
export function violatedUniqueConstraint(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' ? (e.constraint ?? '') : null;
}

/**
 * Whether a statement was cancelled because concurrent transactions waited on each other
 * (a deadlock) or could not be serialised: the request may be repeated as it was.
 */
export function isConcurrencyConflict(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === '40P01' || code === '40001';
}
