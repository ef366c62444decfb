import { Type } from '@sinclair/typebox';
import { Json, Many, One, RefOne, ResourceOf, Text, Time } from '../schemas/documents.ts';

const WebhookResource = ResourceOf('webhook', {
  attributes: {
    name: Type.String(),
    url: Type.String(),
    enabled: Type.Boolean(),
    headers: Type.Record(Type.String(), Type.String()),
    events: Type.Array(
      Type.Object({
        entity_type: Type.String(),
        event_types: Type.Array(Type.String()),
        filters: Type.Union([Type.Array(Json), Type.Null()]),
      }),
    ),
    http_basic_user: Text(),
    http_basic_password: Text(),
    custom_payload: Text(),
    payload_api_version: Type.String(),
    nested_items_in_payload: Type.Boolean(),
    auto_retry: Type.Boolean(),
  },
});
export const WebhookDocument = One(WebhookResource);
export const WebhookList = Many(WebhookResource);

export const SigningSecretDocument = One(
  ResourceOf('webhook_signing_secret', {
    attributes: { secret: Type.String({ description: 'Shown once: `whsec_…`' }) },
  }),
);

const Headers = Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]);

const WebhookCallResource = ResourceOf('webhook_call', {
  attributes: {
    entity_type: Type.String(),
    event_type: Type.String(),
    created_at: Time(),
    request_url: Text(),
    request_headers: Headers,
    request_payload: Text(),
    response_status: Type.Union([Type.Integer(), Type.Null()]),
    response_headers: Headers,
    response_payload: Text(),
    attempted_auto_retries_count: Type.Integer(),
    last_sent_at: Time(),
    next_retry_at: Time(),
    status: Type.String(),
  },
  relationships: { webhook: RefOne('webhook') },
});
export const WebhookCallDocument = One(WebhookCallResource);
export const WebhookCallList = Many(WebhookCallResource, { paginated: true });
