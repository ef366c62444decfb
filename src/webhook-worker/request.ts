import { Webhook } from 'standardwebhooks';
import { maskSecretHeaders } from '../domain/webhooks/secret-headers.ts';
import type { ClaimedCall } from './claimed-call.ts';
import { defaultPayload } from './payload.ts';
import { renderPayloadTemplate, renderUrlTemplate } from './templates.ts';

export type DeliveryRequest = {
  url: string;
  headers: Record<string, string>;
  body: string;
};

const DEFAULT_HEADERS: Record<string, string> = {
  Accept: '*/*',
  'User-Agent': 'DatoCMS (datocms.com)',
  'Content-Type': 'application/json',
};

/** Sets a header, replacing any other spelling of the same name. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) delete headers[key];
  headers[name] = value;
}

function basicAuth(user: string | null, password: string | null): string | null {
  if (!user && !password) return null;
  return `Basic ${Buffer.from(`${user ?? ''}:${password ?? ''}`).toString('base64')}`;
}

/**
 * The POST one attempt sends, from the webhook's current settings: URL and body
 * rendered with the payload context, the default headers, then the webhook's own
 * (which override them whatever their case), then basic auth (which wins), then, when
 * the webhook has a signing secret, the Standard Webhooks headers. Throws when the
 * url or template cannot be rendered.
 */
export function buildRequest(call: ClaimedCall, autoRetries: number, now: Date): DeliveryRequest {
  const { webhook } = call;
  const context = defaultPayload(call, autoRetries);
  const url = renderUrlTemplate(webhook.url, context);
  const body =
    webhook.customPayload === null
      ? JSON.stringify(context)
      : renderPayloadTemplate(webhook.customPayload, context);
  const headers = { ...DEFAULT_HEADERS };
  for (const [name, value] of Object.entries(webhook.headers)) setHeader(headers, name, value);
  const authorization = basicAuth(webhook.httpBasicUser, webhook.httpBasicPassword);
  if (authorization) setHeader(headers, 'Authorization', authorization);
  if (webhook.signingSecret) {
    // The id is the call's, so a receiver can recognise a retry or resend of one event.
    const messageId = `msg_${call.id}`;
    setHeader(headers, 'webhook-id', messageId);
    setHeader(headers, 'webhook-timestamp', String(Math.floor(now.getTime() / 1000)));
    setHeader(
      headers,
      'webhook-signature',
      new Webhook(webhook.signingSecret).sign(messageId, now, body),
    );
  }
  return { url, headers, body };
}

/** The headers as the delivery log keeps them: credentials masked (secret-headers.ts). */
export function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  return maskSecretHeaders(headers);
}
