import type { TokenView } from '../domain/actor.ts';
import type { IssuedToken } from '../domain/auth/access-tokens.ts';
import { lastAccessBucket } from '../domain/auth/last-access.ts';
import { type Resource, ref } from './jsonapi.ts';

/**
 * `secret` is the token itself, known only right after it is made: the database keeps
 * its hash, so every other response carries null.
 */
export function presentAccessToken(row: TokenView, secret: string | null, now: Date): Resource {
  return {
    type: 'access_token',
    id: row.id,
    attributes: {
      name: row.name,
      token: secret,
      can_access_cda: row.can_access_cda,
      can_access_cda_preview: row.can_access_cda_preview,
      can_access_cma: row.can_access_cma,
      hardcoded_type: row.hardcoded_type,
      last_cma_access: lastAccessBucket(row.last_cma_access_at, now),
      // Fieldhouse serves no Content Delivery API.
      last_cda_access: 'never',
    },
    relationships: { role: { data: ref('role', row.role_id) } },
  };
}

/** A token as its routes answer, presented at the moment of the answer. */
export function presentIssuedToken({ row, secret }: IssuedToken): Resource {
  return presentAccessToken(row, secret, new Date());
}
