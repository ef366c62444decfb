import type { Db } from '../../db/client.ts';
import type { WebhookCallRow } from '../../db/schema.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import { presentLoggedWebhook } from '../../presenters/webhook.ts';
import { presentWebhookCall } from '../../presenters/webhook-call.ts';
import { NotFound } from '../errors.ts';
import type { AdmitRead } from '../page-bytes.ts';
import { listWebhooksById } from '../webhooks/repo.ts';
import { parseListQuery, type RawListQuery } from './query.ts';
import * as repo from './repo.ts';

export type CallsDocument = {
  data: Resource[];
  included: Resource[];
  meta: { total_count: number };
};
export type CallDocument = { data: Resource; included: Resource[] };

/** The webhooks the calls belong to, each once, without their credentials. */
async function webhooksOf(db: Db, calls: WebhookCallRow[]): Promise<Resource[]> {
  const ids = [...new Set(calls.map((call) => call.webhook_id))];
  return (await listWebhooksById(db, ids)).map(presentLoggedWebhook);
}

/** `admit` takes the page's bytes before its payloads are read (see repo.listCalls). */
export async function listWebhookCalls(
  db: Db,
  raw: RawListQuery,
  admit?: AdmitRead,
): Promise<CallsDocument> {
  const { rows, total } = await repo.listCalls(db, parseListQuery(raw), admit);
  return {
    data: rows.map(presentWebhookCall),
    included: await webhooksOf(db, rows),
    meta: { total_count: total },
  };
}

export async function findWebhookCall(db: Db, id: string): Promise<CallDocument> {
  const row = await repo.findCall(db, id);
  if (!row) throw new NotFound('Webhook call', id);
  return { data: presentWebhookCall(row), included: await webhooksOf(db, [row]) };
}

/**
 * Queues the call for another attempt with the webhook's current settings; a worker
 * sends it. A call whose webhook was deleted went with it, so it is not found.
 */
export async function resendWebhookCall(db: Db, id: string): Promise<void> {
  const queued = await db.transaction().execute((trx) => repo.markForResend(trx, id));
  if (!queued) throw new NotFound('Webhook call', id);
}
