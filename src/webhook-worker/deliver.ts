import type { Dispatcher } from 'undici';
import type { Db } from '../db/client.ts';
import type { Metrics } from '../metrics.ts';
import type { Logger } from '../worker-logger.ts';
import { RenderLimitExceeded } from './bounded-writer.ts';
import type { ClaimedCall } from './claimed-call.ts';
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

type Attempted = {
  request: DeliveryRequest | null;
  result: SendResult;
  /** Another attempt would fail the same way: the call is not retried. */
  final: boolean;
};

async function attempt(
  call: ClaimedCall,
  autoRetries: number,
  startedAt: Date,
  context: DeliveryContext,
): Promise<Attempted> {
  if (!call.webhook.enabled) {
    const result = notSent('the webhook is disabled: the call was not sent');
    return { request: null, result, final: true };
  }
  let request: DeliveryRequest;
  try {
    request = buildRequest(call, autoRetries, startedAt);
  } catch (error) {
    // A render past its limits costs the same bounded work every time: it ends the call.
    const final = error instanceof RenderLimitExceeded;
    const reason = `could not build the request: ${(error as Error).message}${final ? '; the call is not retried' : ''}`;
    return { request: null, result: notSent(reason), final };
  }
  const result = await send(context.dispatcher, request, context.timeouts);
  return { request, result, final: false };
}

/**
 * One attempt for a claimed call: render, send (outside any transaction), decide
 * what comes next, record. A disabled webhook's queued calls are not sent: they end
 * as failed, with the reason in the attempt log, and can be resent once re-enabled.
 * Returns how long the attempt took to render and send.
 */
export async function deliverCall(call: ClaimedCall, context: DeliveryContext): Promise<number> {
  const kind = attemptKind(call);
  const startedAt = new Date();
  const started = performance.now();
  const { request, result, final } = await attempt(call, kind.autoRetries, startedAt, context);
  const durationMs = performance.now() - started;
  const decision = decideOutcome({
    kind,
    succeeded: result.ok,
    retryable: !final,
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
    return durationMs;
  }
  observe(context.metrics, call, kind.autoRetries, result.ok, durationMs);
  if (final && call.webhook.enabled) {
    context.logger.warn(
      { callId: call.id, webhookId: call.webhookId, error: result.error },
      'webhook call failed for good: its template costs too much to render',
    );
  }
  context.logger.debug(
    { callId: call.id, status: decision.status, error: result.error },
    'webhook attempt recorded',
  );
  return durationMs;
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
