import type { Dispatcher } from 'undici';
import type { Db } from '../db/client.ts';
import type { Metrics } from '../metrics.ts';
import type { ClaimedCall } from './claimed-call.ts';
import type { Logger } from './logger.ts';
import { attemptKind, decideOutcome } from './outcome.ts';
import { recordAttempt } from './record.ts';
import { buildRequest, type DeliveryRequest, loggedHeaders } from './request.ts';
import { RESPONSE_BODY_LIMIT, type SendResult, send, type Timeouts } from './send.ts';

export type DeliveryContext = {
  db: Db;
  dispatcher: Dispatcher;
  workerId: string;
  schedule: readonly number[];
  timeouts: Timeouts;
  logger: Logger;
  metrics?: Metrics | undefined;
};

/**
 * A request body as the delivery log keeps it: up to 64 KiB, as a response body. A record
 * event's payload holds the record twice; whole, every logged call of a large record would
 * keep it twice more for the log's retention.
 */
function loggedBody(body: string): string {
  if (body.length <= RESPONSE_BODY_LIMIT / 4) return body;
  const bytes = Buffer.from(body);
  return bytes.length <= RESPONSE_BODY_LIMIT
    ? body
    : bytes.subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
}

function notSent(error: string): SendResult {
  return { ok: false, status: null, headers: null, body: null, error };
}

async function attempt(
  call: ClaimedCall,
  autoRetries: number,
  startedAt: Date,
  context: DeliveryContext,
): Promise<{ request: DeliveryRequest | null; result: SendResult }> {
  if (!call.webhook.enabled) {
    return { request: null, result: notSent('the webhook is disabled: the call was not sent') };
  }
  let request: DeliveryRequest;
  try {
    request = buildRequest(call, autoRetries, startedAt);
  } catch (error) {
    const reason = `could not build the request: ${(error as Error).message}`;
    return { request: null, result: notSent(reason) };
  }
  return { request, result: await send(context.dispatcher, request, context.timeouts) };
}

/**
 * One attempt for a claimed call: render, send (outside any transaction), decide
 * what comes next, record. A disabled webhook's queued calls are not sent: they end
 * as failed, with the reason in the attempt log, and can be resent once re-enabled.
 */
export async function deliverCall(call: ClaimedCall, context: DeliveryContext): Promise<void> {
  const kind = attemptKind(call);
  const startedAt = new Date();
  const started = performance.now();
  const { request, result } = await attempt(call, kind.autoRetries, startedAt, context);
  const durationMs = performance.now() - started;
  const decision = decideOutcome({
    kind,
    succeeded: result.ok,
    retryable: call.webhook.enabled,
    autoRetry: call.webhook.autoRetry,
    schedule: context.schedule,
    plannedRetryAt: call.nextRetryAt,
    now: new Date(),
  });
  const recorded = await recordAttempt(context.db, {
    callId: call.id,
    leaseToken: call.leaseToken,
    worker: context.workerId,
    claimedManualResend: call.manualResend,
    manual: kind.manual,
    decision,
    startedAt,
    durationMs,
    requestUrl: request?.url ?? null,
    requestHeaders: request ? loggedHeaders(request.headers) : null,
    requestPayload: request ? loggedBody(request.body) : null,
    responseStatus: result.status,
    responseHeaders: result.headers,
    responsePayload: result.body,
    error: result.error,
  });
  if (!recorded) {
    context.logger.warn({ callId: call.id }, 'lease taken over: attempt outcome discarded');
    return;
  }
  observe(context.metrics, call, kind.autoRetries, result.ok, durationMs);
  context.logger.debug(
    { callId: call.id, status: decision.status, error: result.error },
    'webhook attempt recorded',
  );
}

function observe(
  metrics: Metrics | undefined,
  call: ClaimedCall,
  autoRetries: number,
  ok: boolean,
  durationMs: number,
): void {
  if (!metrics) return;
  const outcome = ok ? 'success' : 'failed';
  metrics.deliveries.labels(outcome).inc();
  metrics.deliveryDuration.labels(outcome).observe(durationMs / 1000);
  if (ok && autoRetries === 0 && call.lastSentAt === null)
    metrics.commitToDelivery.observe((Date.now() - call.event.createdAt.getTime()) / 1000);
}
