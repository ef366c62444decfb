import { sql } from 'kysely';
import { executePrepared } from '../db/prepared.ts';
import type { Trx } from '../db/transaction.ts';
import { WEBHOOK_CALLS_CHANNEL } from './channel.ts';
import { type MatchableEvent, webhookWantsEvent } from './matching.ts';

/**
 * Queues one delivery (a pending webhook_calls row, due now) per enabled webhook that
 * wants the event, inside the caller's transaction: the calls commit with the change.
 * The notification is sent on commit only, so workers never wake for a rolled-back change.
 */
export async function enqueueWebhookCalls(
  trx: Trx,
  eventId: string,
  event: MatchableEvent,
): Promise<number> {
  const webhooks = await executePrepared(
    trx,
    trx.selectFrom('webhooks').select(['id', 'events']).where('enabled', '=', true),
  );
  const targets = webhooks.filter((webhook) => webhookWantsEvent(webhook.events, event));
  if (targets.length === 0) return 0;
  await trx
    .insertInto('webhook_calls')
    .values(
      targets.map((webhook) => ({
        webhook_id: webhook.id,
        event_id: eventId,
        entity_type: event.entityType,
        event_type: event.eventType,
      })),
    )
    .execute();
  await sql`SELECT pg_notify(${WEBHOOK_CALLS_CHANNEL}, '')`.execute(trx);
  return targets.length;
}
