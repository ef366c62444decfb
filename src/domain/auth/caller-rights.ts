import type { Queryable } from '../../db/transaction.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { finalPermissions } from './permissions.ts';
import { rightsBeyond } from './rights-within.ts';
import type { RoleAttributes } from './role-attributes.ts';
import { loadRoleChain } from './role-graph.ts';

/** What bounds a caller's role and token writes: a role's final permissions, or nothing. */
export type Rights = RoleAttributes | 'unbounded';

/**
 * The caller's rights as they stand now, read inside the auth transaction (under its
 * lock) so a concurrent change to the caller's own role or token cannot be raced. The
 * project's built-in full-access token is bound by no role.
 */
export async function callerRights(trx: Queryable, caller: Actor): Promise<Rights> {
  if (caller.hardcodedAdmin) return 'unbounded';
  const token = await trx
    .selectFrom('access_tokens')
    .select('role_id')
    .where('id', '=', caller.token.id)
    .executeTakeFirst();
  if (!token)
    throw new DomainError('INSUFFICIENT_PERMISSIONS', 'The calling API token was deleted');
  return finalPermissions(token.role_id, await loadRoleChain(trx, token.role_id));
}

/**
 * Refuses, naming what exceeds, unless `target` (final permissions, or 'unbounded' for
 * the built-in full-access token) grants nothing the caller's rights do not.
 */
export function assertWithinRights(caller: Rights, target: Rights, what: string): void {
  if (caller === 'unbounded') return;
  const beyond =
    target === 'unbounded'
      ? ['every right (the built-in full-access API token)']
      : rightsBeyond(caller, target);
  if (beyond.length > 0) {
    throw new DomainError(
      'INSUFFICIENT_PERMISSIONS',
      `${what} would grant more than the calling token's role has: ${beyond.join(', ')}`,
    );
  }
}
