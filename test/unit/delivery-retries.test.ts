import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attemptKind, decideOutcome } from '../../src/webhook-worker/outcome.ts';
import { DATOCMS_RETRY_SCHEDULE, retryDelayMs } from '../../src/webhook-worker/retry-schedule.ts';
import { DELIVERY_TIMEOUTS } from '../../src/webhook-worker/worker.ts';

const NOW = new Date('2026-01-01T00:00:00Z');
const noJitter = () => 0;

test("DatoCMS's schedule: 7 retries over about 78.6 h, with at most 5% jitter", () => {
  assert.deepEqual(DATOCMS_RETRY_SCHEDULE, [120, 360, 1800, 3600, 18_000, 86_400, 172_800]);
  const hours = DATOCMS_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) / 3600;
  assert.equal(hours.toFixed(1), '78.6');
  assert.equal(retryDelayMs(DATOCMS_RETRY_SCHEDULE, 0, noJitter), 120_000);
  assert.equal(
    retryDelayMs(DATOCMS_RETRY_SCHEDULE, 0, () => 1),
    126_000,
  );
  assert.equal(retryDelayMs(DATOCMS_RETRY_SCHEDULE, 6, noJitter), 172_800_000);
  assert.equal(retryDelayMs(DATOCMS_RETRY_SCHEDULE, 7, noJitter), null);
  assert.deepEqual(DELIVERY_TIMEOUTS, { connectMs: 2000, totalMs: 8000 });
});

test('attempt kind comes from the stored call, so a taken-over attempt is repeated, not skipped', () => {
  assert.deepEqual(attemptKind({ manualResend: false, lastSentAt: null, autoRetriesCount: 0 }), {
    manual: false,
    autoRetries: 0,
  });
  assert.deepEqual(attemptKind({ manualResend: false, lastSentAt: NOW, autoRetriesCount: 2 }), {
    manual: false,
    autoRetries: 3,
  });
  assert.deepEqual(attemptKind({ manualResend: true, lastSentAt: NOW, autoRetriesCount: 2 }), {
    manual: true,
    autoRetries: 2,
  });
  // A resend before the first attempt is the first attempt.
  assert.deepEqual(attemptKind({ manualResend: true, lastSentAt: null, autoRetriesCount: 0 }), {
    manual: false,
    autoRetries: 0,
  });
});

const base = {
  succeeded: false,
  retryable: true,
  autoRetry: true,
  schedule: DATOCMS_RETRY_SCHEDULE,
  plannedRetryAt: null,
  now: NOW,
  random: noJitter,
};

test('auto attempts: rescheduled along the schedule, failed after the last retry', () => {
  const first = decideOutcome({ ...base, kind: { manual: false, autoRetries: 0 } });
  assert.equal(first.status, 'rescheduled');
  assert.equal(first.dueAt?.getTime(), NOW.getTime() + 120_000);
  assert.deepEqual(first.nextRetryAt, first.dueAt);
  const sixth = decideOutcome({ ...base, kind: { manual: false, autoRetries: 6 } });
  assert.equal(sixth.dueAt?.getTime(), NOW.getTime() + 172_800_000);
  assert.deepEqual(decideOutcome({ ...base, kind: { manual: false, autoRetries: 7 } }), {
    status: 'failed',
    autoRetriesCount: 7,
    nextRetryAt: null,
    dueAt: null,
  });
  assert.equal(
    decideOutcome({ ...base, autoRetry: false, kind: { manual: false, autoRetries: 0 } }).status,
    'failed',
  );
  assert.equal(
    decideOutcome({ ...base, retryable: false, kind: { manual: false, autoRetries: 0 } }).status,
    'failed',
  );
  assert.deepEqual(
    decideOutcome({ ...base, succeeded: true, kind: { manual: false, autoRetries: 3 } }),
    { status: 'success', autoRetriesCount: 3, nextRetryAt: null, dueAt: null },
  );
});

test('manual resends do not count: a failed one keeps the planned retry, a success ends it', () => {
  const planned = new Date(NOW.getTime() + 999_000);
  const kind = { manual: true, autoRetries: 2 };
  assert.deepEqual(decideOutcome({ ...base, kind, plannedRetryAt: planned }), {
    status: 'rescheduled',
    autoRetriesCount: 2,
    nextRetryAt: planned,
    dueAt: planned,
  });
  assert.equal(decideOutcome({ ...base, kind }).status, 'failed');
  assert.equal(
    decideOutcome({ ...base, kind, plannedRetryAt: planned, succeeded: true }).dueAt,
    null,
  );
});
