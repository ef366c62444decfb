import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { uploadFromRow } from '../../domain/uploads/upload.ts';
import { pageBounds } from '../limits/page-bounds.ts';
import type { DeliveryContext } from '../resolvers/context.ts';
import type { FileValue } from './file-value.ts';
import { uploadFilterCondition, uploadOrder } from './upload-filter.ts';
import { UPLOAD_ALIAS, uploadInUse } from './upload-in-use.ts';

/** The arguments of `allUploads`, `upload` and `_allUploadsMeta`. */
type UploadArgs = {
  locale?: string | null;
  fallbackLocales?: string[] | null;
  skip?: number | null;
  first?: number | null;
  filter?: Record<string, unknown> | null;
  orderBy?: (string | null)[] | null;
};

const DEFAULT_ORDER = ['_createdAt_DESC'];

async function uploadsWhere(args: UploadArgs, context: DeliveryContext) {
  const locale = args.locale ?? context.locales[0] ?? '';
  const conditions: RawBuilder<SqlBool>[] = [
    await context.uploadReach(),
    uploadFilterCondition(args.filter, locale, uploadInUse(context.scope.db)),
  ];
  return sql<SqlBool>`${sql.join(conditions, sql` AND `)}`;
}

async function findUploads(
  args: UploadArgs,
  context: DeliveryContext,
  page: { first: number; skip: number },
): Promise<FileValue[]> {
  const where = await uploadsWhere(args, context);
  const orderBy = args.orderBy?.filter((rule): rule is string => rule !== null) ?? DEFAULT_ORDER;
  context.budget.spendStatement();
  const rows = await context.scope.db
    .selectFrom(`uploads as ${UPLOAD_ALIAS}` as 'uploads')
    .selectAll()
    .where(where)
    .orderBy(uploadOrder(orderBy.length > 0 ? orderBy : DEFAULT_ORDER))
    .limit(page.first)
    .offset(page.skip)
    .execute();
  context.tags?.uploadCollection();
  context.tags?.uploads(rows.map((row) => row.id));
  const locale = args.locale ?? context.locales[0] ?? '';
  const fallbackLocales = args.fallbackLocales ?? [];
  return rows.map((row) => ({
    upload: uploadFromRow(row),
    metadata: null,
    locale,
    fallbackLocales,
  }));
}

/** `allUploads`: one page of the uploads the role may read, in one statement. */
export async function allUploadsResolver(
  _root: unknown,
  args: UploadArgs,
  context: DeliveryContext,
) {
  const page = pageBounds(args.first, args.skip);
  if (page.first === 0) return [];
  return findUploads(args, context, page);
}

/** `upload`: the first upload matching the filter. */
export async function uploadResolver(_root: unknown, args: UploadArgs, context: DeliveryContext) {
  return (await findUploads(args, context, { first: 1, skip: 0 }))[0] ?? null;
}

/** `_allUploadsMeta`: how many uploads match, in one statement. */
export async function uploadsMetaResolver(
  _root: unknown,
  args: UploadArgs,
  context: DeliveryContext,
) {
  const where = await uploadsWhere(args, context);
  context.budget.spendStatement();
  const row = await context.scope.db
    .selectFrom(`uploads as ${UPLOAD_ALIAS}` as 'uploads')
    .select(sql<string>`count(*)`.as('count'))
    .where(where)
    .executeTakeFirstOrThrow();
  context.tags?.uploadCollection();
  return { count: Number(row.count) };
}
