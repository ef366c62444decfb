import { sql } from 'kysely';
import type { WebhookRow } from '../db/schema.ts';
import type { Trx } from '../db/transaction.ts';
import { WEBHOOK_CALLS_CHANNEL } from './channel.ts';
import { type MatchableEvent, webhookWantsEvent } from './matching.ts';

/** What the fan-out reads of each enabled webhook. */
export type EnabledWebhook = Pick<WebhookRow, 'id' | 'events'>;

/**
 * Queues one delivery (a pending webhook_calls row, due now) per enabled webhook that
 * wants the event, inside the caller's transaction: the calls commit with the change.
 * `webhooks` are the enabled webhooks, read in the same transaction (with the event's
 * insert). The notification is sent on commit only, so workers never wake for a
 * rolled-back change.
 */
export async function enqueueWebhookCalls(
  trx: Trx,
  eventId: string,
  event: MatchableEvent,
  webhooks: EnabledWebhook[],
): Promise<number> {
  const targets = webhooks.filter((webhook) => webhookWantsEvent(webhook.events, event));
  if (targets.length === 0) return 0;
  // The calls and the notification in one statement: a data-modifying WITH runs whether
  // or not the outer SELECT reads it.
  await trx
    .with('calls', (db) =>
      db.insertInto('webhook_calls').values(
        targets.map((webhook) => ({
          webhook_id: webhook.id,
          event_id: eventId,
          entity_type: event.entityType,
          event_type: event.eventType,
        })),
      ),
    )
    .selectNoFrom(sql`pg_notify(${WEBHOOK_CALLS_CHANNEL}, '')`.as('notified'))
    .execute();
  return targets.length;
}
