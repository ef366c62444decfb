import type { WebhookCallRow } from '../db/schema.ts';
import type { CallsPage, CallWithWebhook } from '../domain/webhook-calls/service.ts';
import { maskSecretHeaders } from '../domain/webhooks/secret-headers.ts';
import { isoTime, type Resource } from './jsonapi.ts';
import { presentLoggedWebhook } from './webhook.ts';

/** Credentials never leave the log: the scheme stays visible, the rest is masked. */
function masked(headers: Record<string, string> | null): Record<string, string> | null {
  return headers === null ? null : maskSecretHeaders(headers);
}

/**
 * A delivery log entry. Until its first attempt the request members are null: nothing
 * has been sent yet.
 */
export function presentWebhookCall(row: WebhookCallRow): Resource {
  return {
    type: 'webhook_call',
    id: row.id,
    attributes: {
      entity_type: row.entity_type,
      event_type: row.event_type,
      created_at: isoTime(row.created_at),
      request_url: row.request_url,
      request_headers: masked(row.request_headers),
      request_payload: row.request_payload,
      response_status: row.response_status,
      response_headers: masked(row.response_headers),
      response_payload: row.response_payload,
      attempted_auto_retries_count: row.attempted_auto_retries_count,
      last_sent_at: isoTime(row.last_sent_at),
      next_retry_at: isoTime(row.next_retry_at),
      status: row.status,
    },
    relationships: { webhook: { data: { type: 'webhook', id: row.webhook_id } } },
  };
}

/** The log page, its webhooks included without their credentials. */
export function presentCallsPage(page: CallsPage) {
  return {
    data: page.calls.map(presentWebhookCall),
    included: page.webhooks.map(presentLoggedWebhook),
    meta: { total_count: page.total },
  };
}

export function presentCallWithWebhook({ call, webhooks }: CallWithWebhook) {
  return { data: presentWebhookCall(call), included: webhooks.map(presentLoggedWebhook) };
}
