import { DomainError } from '../errors.ts';
import type { RoleAttributes } from './role-attributes.ts';

export type EnvironmentsAccess = RoleAttributes['environments_access'];
export type EnvironmentKind = 'primary' | 'sandbox';

/** The kinds of environment an access reaches. */
export const REACH: Record<EnvironmentsAccess, ReadonlySet<EnvironmentKind>> = {
  all: new Set(['primary', 'sandbox']),
  primary_only: new Set(['primary']),
  sandbox_only: new Set(['sandbox']),
  none: new Set(),
};

/**
 * Refuses unless a role of this access may enter the environment: the one a request's
 * X-Environment selects, and every one an environment operation acts on (judged on the
 * row as the operation's transaction read it, so a concurrent promote cannot slip by).
 */
export function assertReaches(
  access: EnvironmentsAccess,
  environment: { id: string; isPrimary: boolean },
): void {
  if (REACH[access].has(environment.isPrimary ? 'primary' : 'sandbox')) return;
  throw new DomainError(
    'INSUFFICIENT_PERMISSIONS',
    `The token's role cannot access environment "${environment.id}"`,
  );
}
