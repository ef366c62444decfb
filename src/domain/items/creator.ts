import { type Expression, sql } from 'kysely';
import type { AccessTokenRow } from '../../db/schema.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { CallerToken, TokenView } from '../actor.ts';

/**
 * A record event names the record's creator among its related entities.
 * A create's creator is the caller, whose token the request read as it authenticated
 * (`callerAsCreator`). A change of an existing record reads its creator's token as one more
 * column (`creatorColumn`) of the record's first read (findRecordOrFail); other changes
 * look it up.
 */

/** The token as row_to_json gives it: bigints as numbers, timestamps as strings. */
type AccessTokenJson = Omit<
  AccessTokenRow,
  'id' | 'role_id' | 'last_cma_access_at' | 'created_at'
> & {
  id: number;
  role_id: number;
  last_cma_access_at: string | null;
  created_at: string;
};

/**
 * The creator's token as a column named `creator` (null when there is none): the creator's
 * id as a value, or the column holding it (text, as a record keeps it: hence the cast to
 * the token's bigint id). `access_tokens` is a project table: unqualified, it is found in
 * the project's schema whichever environment the statement reaches.
 */
export function creatorColumn(creatorId: string | null | Expression<string | null>) {
  return sql<AccessTokenJson | null>`(SELECT row_to_json(t.*) FROM access_tokens AS t WHERE t.id = ${creatorId}::bigint)`.as(
    'creator',
  );
}

/** The creator of a record the caller creates: its token, just used for this call. */
export function callerAsCreator(token: CallerToken | null): TokenView | null {
  return token === null ? null : { ...token, last_cma_access_at: new Date() };
}

/** The creator read by `creatorColumn`: none once deleted. */
export function creatorOf(json: AccessTokenJson | null | undefined): TokenView | null {
  if (!json) return null;
  // As the driver gives a row: bigints as strings (client.ts), timestamps as dates.
  const row: AccessTokenRow = {
    ...json,
    id: String(json.id),
    role_id: String(json.role_id),
    last_cma_access_at: json.last_cma_access_at === null ? null : new Date(json.last_cma_access_at),
    created_at: new Date(json.created_at),
  };
  return row;
}

/** The creator's related entity, read on its own: for changes that write no record row. */
export async function lookUpCreator(
  db: Queryable,
  creatorId: string | null,
): Promise<TokenView | null> {
  if (creatorId === null) return null;
  const row = await db
    .selectFrom('access_tokens')
    .selectAll()
    .where('id', '=', creatorId)
    .executeTakeFirst();
  return row ?? null;
}
