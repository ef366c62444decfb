import type { WebhookCallStatus } from '../db/schema.ts';
import { retryDelayMs } from './retry-schedule.ts';

export type AttemptKind = {
  /** A resend of a call already attempted: it does not count as an auto-retry. */
  manual: boolean;
  /** 0 for the first delivery, n for the n-th auto-retry; a manual attempt keeps the count. */
  autoRetries: number;
};

/**
 * What kind of attempt a claim is, derived from the stored call alone, so a worker
 * that takes over a crashed one's lease repeats the same attempt rather than the next.
 */
export function attemptKind(call: {
  manualResend: boolean;
  lastSentAt: Date | null;
  autoRetriesCount: number;
}): AttemptKind {
  // A resend of a never-attempted call is simply its first delivery.
  if (call.lastSentAt === null) return { manual: false, autoRetries: 0 };
  if (call.manualResend) return { manual: true, autoRetries: call.autoRetriesCount };
  return { manual: false, autoRetries: call.autoRetriesCount + 1 };
}

export type Decision = {
  status: Exclude<WebhookCallStatus, 'pending'>;
  autoRetriesCount: number;
  nextRetryAt: Date | null;
  /** When a worker should pick the call up again; null when nothing is left to do. */
  dueAt: Date | null;
};

/**
 * The call's state after an attempt: success ends it; an auto attempt
 * that failed is retried on the schedule while auto_retry is on and the schedule has
 * retries left, else the call has failed. A failed resend does not count: an
 * auto-retry planned before it stays planned.
 */
export function decideOutcome(input: {
  kind: AttemptKind;
  succeeded: boolean;
  /** False when the call must not be retried whatever the settings (a disabled webhook, a render past its limits). */
  retryable: boolean;
  autoRetry: boolean;
  schedule: readonly number[];
  plannedRetryAt: Date | null;
  now: Date;
  random?: () => number;
}): Decision {
  const { kind, now } = input;
  const done = (status: Decision['status']): Decision => ({
    status,
    autoRetriesCount: kind.autoRetries,
    nextRetryAt: null,
    dueAt: null,
  });
  if (input.succeeded) return done('success');
  if (!input.retryable) return done('failed');
  if (kind.manual) {
    if (input.plannedRetryAt === null) return done('failed');
    const at = input.plannedRetryAt;
    return {
      status: 'rescheduled',
      autoRetriesCount: kind.autoRetries,
      nextRetryAt: at,
      dueAt: at,
    };
  }
  const delay = input.autoRetry
    ? retryDelayMs(input.schedule, kind.autoRetries, input.random)
    : null;
  if (delay === null) return done('failed');
  const at = new Date(now.getTime() + delay);
  return { status: 'rescheduled', autoRetriesCount: kind.autoRetries, nextRetryAt: at, dueAt: at };
}
