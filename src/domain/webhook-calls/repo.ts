import { type SelectQueryBuilder, sql } from 'kysely';
import type { ProjectDatabase, WebhookCallRow } from '../../db/schema.ts';
import type { Queryable } from '../../db/transaction.ts';
import { WEBHOOK_CALLS_CHANNEL } from '../../events/channel.ts';
import { isRowId } from '../auth/row-id.ts';
import { type AdmitRead, checkPageBytes } from '../page-bytes.ts';
import type { CallListQuery } from './query.ts';

type CallQuery<O> = SelectQueryBuilder<ProjectDatabase, 'webhook_calls', O>;

function filtered<O>(query: CallQuery<O>, params: CallListQuery): CallQuery<O> {
  let q = query;
  if (params.ids !== null)
    q = params.ids.length > 0 ? q.where('id', 'in', params.ids) : q.where(sql<boolean>`false`);
  for (const [column, value] of Object.entries(params.equals))
    q = q.where(column as keyof typeof params.equals, '=', value);
  for (const range of params.ranges)
    q = q.where(range.column, range.op === 'gt' ? '>' : '<', range.at);
  return q;
}

/**
 * One page of calls in the requested order (ties broken by id), and the total matching.
 * Calls carry whole records in their payloads: the page is measured first, and `admit`
 * takes its bytes (checkPageBytes refuses a page too large) before any payload is read.
 */
export async function listCalls(
  db: Queryable,
  params: CallListQuery,
  admit?: AdmitRead,
): Promise<{ rows: WebhookCallRow[]; total: number }> {
  const { column, direction } = params.order;
  const [idRows, count] = await Promise.all([
    filtered(db.selectFrom('webhook_calls').select('id'), params)
      // Calls not sent yet (or with no retry planned) come last either way.
      .orderBy(column, (ob) => (direction === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('id', direction)
      .offset(params.offset)
      .limit(params.limit)
      .execute(),
    filtered(
      db.selectFrom('webhook_calls').select((eb) => eb.fn.countAll<string>().as('count')),
      params,
    ).executeTakeFirstOrThrow(),
  ]);
  const ids = idRows.map((row) => row.id);
  if (ids.length === 0) return { rows: [], total: Number(count.count) };
  const sizes = await db
    .selectFrom('webhook_calls')
    .select('id')
    .select(
      sql<string>`coalesce(octet_length(request_payload), 0) + coalesce(octet_length(response_payload), 0)
        + coalesce(octet_length(request_headers::text), 0) + coalesce(octet_length(response_headers::text), 0)`.as(
        'bytes',
      ),
    )
    .where('id', 'in', ids)
    .execute();
  const sizeOf = new Map(sizes.map((row) => [row.id, Number(row.bytes)]));
  admit?.(checkPageBytes(ids.map((id) => sizeOf.get(id) ?? 0)));
  const rows = await db.selectFrom('webhook_calls').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { rows: ids.flatMap((id) => byId.get(id) ?? []), total: Number(count.count) };
}

export async function findCall(db: Queryable, id: string): Promise<WebhookCallRow | undefined> {
  if (!isRowId(id)) return undefined;
  return db.selectFrom('webhook_calls').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Makes the call due now as a manual resend and wakes the workers (on commit). The
 * planned auto-retry time stays in next_retry_at, so a failed resend can keep it.
 */
export async function markForResend(db: Queryable, id: string): Promise<boolean> {
  if (!isRowId(id)) return false;
  const row = await db
    .updateTable('webhook_calls')
    .set({ status: 'pending', manual_resend: true, due_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await sql`SELECT pg_notify(${WEBHOOK_CALLS_CHANNEL}, '')`.execute(db);
  return true;
}
