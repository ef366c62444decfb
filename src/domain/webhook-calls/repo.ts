import { type SelectQueryBuilder, sql } from 'kysely';
import type { ProjectDatabase, WebhookCallRow } from '../../db/schema.ts';
import type { Queryable } from '../../db/transaction.ts';
import { WEBHOOK_CALLS_CHANNEL } from '../../events/channel.ts';
import { isRowId } from '../auth/row-id.ts';
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

/** One page of calls in the requested order (ties broken by id), and the total matching. */
export async function listCalls(
  db: Queryable,
  params: CallListQuery,
): Promise<{ rows: WebhookCallRow[]; total: number }> {
  const { column, direction } = params.order;
  const [rows, count] = await Promise.all([
    filtered(db.selectFrom('webhook_calls').selectAll(), params)
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
  return { rows, total: Number(count.count) };
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
