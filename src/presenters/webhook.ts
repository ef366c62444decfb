import type { WebhookRow } from '../db/schema.ts';
import { MASK, maskSecretHeaders } from '../domain/webhooks/secret-headers.ts';
import type { SigningSecret } from '../domain/webhooks/signing.ts';
import type { Resource } from './jsonapi.ts';

/**
 * The webhook exactly as DatoCMS shapes it: no relationships, no meta. The signing
 * secret (a Fieldhouse extension) is never an attribute; it is shown once, on rotation.
 */
export function presentWebhook(row: WebhookRow): Resource {
  return {
    type: 'webhook',
    id: row.id,
    attributes: {
      name: row.name,
      url: row.url,
      enabled: row.enabled,
      headers: row.headers,
      events: row.events.map((rule) => ({
        entity_type: rule.entity_type,
        event_types: rule.event_types,
        filters: rule.filters ?? null,
      })),
      http_basic_user: row.http_basic_user,
      http_basic_password: row.http_basic_password,
      custom_payload: row.custom_payload,
      payload_api_version: row.payload_api_version,
      nested_items_in_payload: row.nested_items_in_payload,
      auto_retry: row.auto_retry,
    },
  };
}

/**
 * The webhook as the delivery log includes it: its basic-auth password and the values of
 * headers that carry credentials masked, as the log's own request headers are.
 */
export function presentLoggedWebhook(row: WebhookRow): Resource {
  const presented = presentWebhook(row);
  return {
    ...presented,
    attributes: {
      ...presented.attributes,
      headers: maskSecretHeaders(row.headers),
      http_basic_password: row.http_basic_password === null ? null : MASK,
    },
  };
}

export function presentSigningSecret({ webhookId, secret }: SigningSecret): Resource {
  return { type: 'webhook_signing_secret', id: webhookId, attributes: { secret } };
}
