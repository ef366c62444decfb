import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from '../../db/environment-scope.ts';
import type { Actor } from '../../domain/actor.ts';
import { readableCreators } from '../../domain/uploads/authorization.ts';

/** The condition limiting uploads to those the token's role may read (upload `read`). */
export type UploadReach = () => Promise<RawBuilder<SqlBool>>;

/**
 * Read lazily, once per request: most roles read every upload (no statement); one limited
 * to its own or its role's uploads costs one statement, on the first upload read.
 */
export function uploadReach(actor: Actor, scope: Scope): UploadReach {
  let condition: Promise<RawBuilder<SqlBool>> | undefined;
  const load = async () => {
    const reach = readableCreators(actor, scope.environment.id);
    if (reach === 'anyone') return sql<SqlBool>`true`;
    const creators = reach.self ? [actor.token.id] : [];
    if (reach.role && actor.token.role_id) {
      const tokens = await scope.project
        .selectFrom('access_tokens')
        .select('id')
        .where('role_id', '=', actor.token.role_id)
        .execute();
      creators.push(...tokens.map((token) => String(token.id)));
    }
    return sql<SqlBool>`creator_id = ANY(${creators}::text[])`;
  };
  return () => {
    condition ??= load();
    return condition;
  };
}
