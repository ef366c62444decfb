import type { Db } from '../../db/client.ts';
import type { WebhookCallRow, WebhookRow } from '../../db/schema.ts';
import { NotFound } from '../errors.ts';
import type { AdmitRead } from '../page-bytes.ts';
import { listWebhooksById } from '../webhooks/repo.ts';
import { parseListQuery, type RawListQuery } from './query.ts';
import * as repo from './repo.ts';

/** Calls with the webhooks they belong to, each webhook once. */
export type CallsPage = { calls: WebhookCallRow[]; webhooks: WebhookRow[]; total: number };
export type CallWithWebhook = { call: WebhookCallRow; webhooks: WebhookRow[] };

async function webhooksOf(db: Db, calls: WebhookCallRow[]): Promise<WebhookRow[]> {
  const ids = [...new Set(calls.map((call) => call.webhook_id))];
  return listWebhooksById(db, ids);
}

/** `admit` takes the page's bytes before its payloads are read (see repo.listCalls). */
export async function listWebhookCalls(
  db: Db,
  raw: RawListQuery,
  admit?: AdmitRead,
): Promise<CallsPage> {
  const { rows, total } = await repo.listCalls(db, parseListQuery(raw), admit);
  return { calls: rows, webhooks: await webhooksOf(db, rows), total };
}

export async function findWebhookCall(db: Db, id: string): Promise<CallWithWebhook> {
  const row = await repo.findCall(db, id);
  if (!row) throw new NotFound('Webhook call', id);
  return { call: row, webhooks: await webhooksOf(db, [row]) };
}

/**
 * Queues the call for another attempt with the webhook's current settings; a worker
 * sends it. A call whose webhook was deleted went with it, so it is not found.
 */
export async function resendWebhookCall(db: Db, id: string): Promise<void> {
  const queued = await db.transaction().execute((trx) => repo.markForResend(trx, id));
  if (!queued) throw new NotFound('Webhook call', id);
}
