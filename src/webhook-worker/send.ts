import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { RefusedTarget } from './address-guard.ts';
import type { DeliveryRequest } from './request.ts';

/** Response bodies are kept up to this many bytes in the delivery log. */
export const RESPONSE_BODY_LIMIT = 64 * 1024;

export type Timeouts = { connectMs: number; totalMs: number };

export type SendResult = {
  ok: boolean;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
  /** Why the attempt failed, for the log; null on success. */
  error: string | null;
};

// PostgreSQL text and jsonb cannot hold NUL characters; a receiver may send them.
function storable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

async function readTruncated(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    chunks.push(buffer.subarray(0, RESPONSE_BODY_LIMIT - size));
    size += buffer.length;
    if (size >= RESPONSE_BODY_LIMIT) {
      body.destroy();
      break;
    }
  }
  return storable(Buffer.concat(chunks).toString('utf8'));
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = storable(Array.isArray(value) ? value.join(', ') : value);
  }
  return flat;
}

function describe(error: unknown, signal: AbortSignal, timeouts: Timeouts): string {
  if (error instanceof RefusedTarget) return error.message;
  if (signal.aborted) return `no complete answer within ${timeouts.totalMs / 1000} s`;
  const e = error as { code?: string; message?: string; cause?: unknown };
  if (e.cause instanceof RefusedTarget) return e.cause.message;
  if (e.code === 'UND_ERR_CONNECT_TIMEOUT')
    return `could not connect within ${timeouts.connectMs / 1000} s`;
  if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT')
    return `no complete answer within ${timeouts.totalMs / 1000} s`;
  return `${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}`;
}

/**
 * POSTs the request through the guarded agent, within the total timeout (connect
 * timeout is the agent's). Redirects are not followed: a 3xx is a failed attempt.
 */
export async function send(
  dispatcher: Dispatcher,
  delivery: DeliveryRequest,
  timeouts: Timeouts,
): Promise<SendResult> {
  const signal = AbortSignal.timeout(timeouts.totalMs);
  let status: number | null = null;
  let headers: Record<string, string> | null = null;
  try {
    const response = await request(delivery.url, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      dispatcher,
      signal,
      headersTimeout: timeouts.totalMs,
      bodyTimeout: timeouts.totalMs,
    });
    status = response.statusCode;
    headers = flatHeaders(response.headers);
    const body = await readTruncated(response.body);
    const ok = status >= 200 && status < 300;
    return { ok, status, headers, body, error: ok ? null : `the receiver answered ${status}` };
  } catch (error) {
    return { ok: false, status, headers, body: null, error: describe(error, signal, timeouts) };
  }
}
