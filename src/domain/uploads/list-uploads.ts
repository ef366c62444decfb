import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../db/environment-scope.ts';
import type { Actor } from '../actor.ts';
import { DomainError } from '../errors.ts';
import { siteLocales } from '../schema/locales.ts';
import { readableCreators } from './authorization.ts';
import { uploadFieldConditions, uploadOrdering, uploadQueryCondition } from './list-filters.ts';
import { type Upload, uploadFromRow } from './upload.ts';

export type UploadListQuery = {
  ids?: string[];
  query?: string;
  fields?: unknown;
  locale?: string;
  orderBy?: string;
  offset: number;
  limit: number;
};

export type UploadPage = { uploads: Upload[]; totalCount: number };

/**
 * A page of the environment's uploads that the caller may read, filtered and ordered,
 * with how many match in all (one statement: the count is a window over the match).
 */
export async function listUploads(
  scope: Scope,
  actor: Actor,
  query: UploadListQuery,
): Promise<UploadPage> {
  const locales = await siteLocales(scope.db);
  const locale = query.locale ?? locales[0] ?? 'en';
  if (!locales.includes(locale)) {
    throw new DomainError('INVALID_PARAMS', `The site has no locale "${locale}"`, { locale });
  }
  const conditions = [...uploadFieldConditions(query.fields)];
  if (query.ids) conditions.push(sql<SqlBool>`id = ANY(${query.ids}::text[])`);
  if (query.query) conditions.push(uploadQueryCondition(query.query, locale));
  const creators = await creatorCondition(scope, actor);
  if (creators) conditions.push(creators);
  const rows = await scope.db
    .selectFrom('uploads')
    .selectAll()
    .select(sql<string>`count(*) OVER ()`.as('total_count'))
    .where(
      conditions.length === 0
        ? sql<SqlBool>`true`
        : sql<SqlBool>`${sql.join(conditions, sql` AND `)}`,
    )
    .orderBy(uploadOrdering(query.orderBy))
    .offset(query.offset)
    .limit(query.limit)
    .execute();
  const totalCount = rows[0] ? Number(rows[0].total_count) : await countAll(scope, conditions);
  return { uploads: rows.map(uploadFromRow), totalCount };
}

/** The total when the page is past the end (no row carries the window count). */
async function countAll(scope: Scope, conditions: ReturnType<typeof sql<SqlBool>>[]) {
  if (conditions.length === 0) {
    const row = await scope.db
      .selectFrom('uploads')
      .select(sql<string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  const row = await scope.db
    .selectFrom('uploads')
    .select(sql<string>`count(*)`.as('n'))
    .where(sql<SqlBool>`${sql.join(conditions, sql` AND `)}`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Limits a list to the creators whose uploads the role may read (null: no limit). */
async function creatorCondition(scope: Scope, actor: Actor) {
  const reach = readableCreators(actor, scope.environment.id);
  if (reach === 'anyone') return null;
  const creators = reach.self ? [actor.token.id] : [];
  if (reach.role && actor.token.role_id) {
    const tokens = await scope.project
      .selectFrom('access_tokens')
      .select('id')
      .where('role_id', '=', actor.token.role_id)
      .execute();
    creators.push(...tokens.map((t) => String(t.id)));
  }
  return sql<SqlBool>`creator_id = ANY(${creators}::text[])`;
}
