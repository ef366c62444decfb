import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/client.ts';
import { claimDueCalls } from '../../src/webhook-worker/claim.ts';
import { type AttemptRecord, recordAttempt } from '../../src/webhook-worker/record.ts';
import { startDeliveryWorker } from '../../src/webhook-worker/worker.ts';
import {
  attemptsOf,
  eventually,
  findCall,
  insertEvent,
  insertWebhook,
  openWorkerDatabase,
  queueCall,
  settledCall,
} from '../support/delivery-fixtures.ts';
import { startReceiver } from '../support/receiver.ts';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A failed attempt's outcome, as the holder of `leaseToken` would record it. */
function outcome(callId: string, leaseToken: string): AttemptRecord {
  return {
    callId,
    leaseToken,
    worker: leaseToken,
    claimedManualResend: false,
    manual: false,
    decision: { status: 'failed', autoRetriesCount: 0, nextRetryAt: null, dueAt: null },
    startedAt: new Date(),
    durationMs: 1,
    requestUrl: null,
    requestHeaders: null,
    requestPayload: null,
    responseStatus: null,
    responseHeaders: null,
    responsePayload: null,
    error: 'too late',
  };
}

test('two workers on one database deliver 200 calls, each exactly once', async () => {
  const env = await openWorkerDatabase({ workerConcurrency: 16 });
  const receiver = await startReceiver();
  receiver.reply = () => ({ status: 200, delayMs: Math.floor(Math.random() * 5) });
  // On PostgreSQL the second worker has its own connections, as another process would.
  const second =
    env.config.databaseUrl === null ? null : await openDatabase({ ...env.config, dbPoolSize: 5 });
  try {
    const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/pair` });
    const event = await insertEvent(env.db);
    const events = await Promise.all(
      Array.from({ length: 199 }, () => insertEvent(env.db).then((e) => e.id)),
    );
    const callIds = new Set<string>();
    for (const eventId of [event.id, ...events])
      callIds.add(await queueCall(env.db, webhookId, eventId));
    // Exactly once holds while every send is answered within the delivery timeouts (else
    // it is retried) and recorded within its lease: a loaded machine can outlast the
    // defaults (2 s to connect, 8 s in all, a 30 s lease), so these are generous.
    const leaseMs = 600_000;
    const timeouts = { connectMs: 60_000, totalMs: 120_000 };
    const a = env.startWorker({ workerId: 'worker-a', leaseMs, timeouts });
    const b = startDeliveryWorker({
      db: second?.db ?? env.db,
      config: env.config,
      logger: silent,
      workerId: 'worker-b',
      leaseMs,
      timeouts,
    });
    await receiver.waitForRequests(200, 300_000);
    await eventually(async () => {
      const { count } = await env.db
        .selectFrom('webhook_calls')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('status', '=', 'success')
        .executeTakeFirstOrThrow();
      return Number(count) === 200;
    });
    await Promise.all([a.stop(), b.stop()]);
    const delivered = receiver.requests.map((r) => JSON.parse(r.body).webhook_call_id as string);
    assert.equal(delivered.length, 200);
    assert.deepEqual(new Set(delivered), callIds);
    const attempts = await env.db.selectFrom('webhook_call_attempts').selectAll().execute();
    assert.equal(attempts.length, 200);
    assert.equal(new Set(attempts.map((row) => row.webhook_call_id)).size, 200);
    const byWorker = new Set(attempts.map((row) => row.worker));
    assert.deepEqual([...byWorker].sort(), ['worker-a', 'worker-b']);
  } finally {
    await second?.close();
    await env.close();
    await receiver.close();
  }
});

test("a crashed worker's lease is taken over once it expires", async () => {
  const env = await openWorkerDatabase();
  const receiver = await startReceiver();
  try {
    const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/crashed` });
    const event = await insertEvent(env.db);
    const callId = await queueCall(env.db, webhookId, event.id);
    // As a worker that claimed the call and died (kill -9) would leave it.
    const leaseEnds = new Date(Date.now() + 3000);
    await env.db
      .updateTable('webhook_calls')
      .set({ lease_owner: 'crashed-worker', lease_until: leaseEnds })
      .where('id', '=', callId)
      .execute();
    const worker = env.startWorker({ workerId: 'survivor', pollMs: 100 });
    const call = await settledCall(env.db, callId, 'success');
    // Judged by when the request arrived, not by a fixed wait a loaded machine may outlast.
    assert.ok(
      (receiver.requests[0]?.receivedAt ?? 0) >= leaseEnds.getTime(),
      'a live lease is respected',
    );
    const [attempt] = await attemptsOf(env.db, callId);
    assert.equal(attempt?.worker, 'survivor');
    // The crashed worker, had it only stalled, cannot overwrite the newer outcome.
    const late = await recordAttempt(env.db, outcome(callId, 'crashed-worker'));
    assert.equal(late, false);
    assert.deepEqual(await findCall(env.db, callId), call);
    assert.equal((await attemptsOf(env.db, callId)).length, 1);
    await worker.stop();
  } finally {
    await env.close();
    await receiver.close();
  }
});

test('a worker whose lease ran out while sending cannot record over the one that took over', async () => {
  const env = await openWorkerDatabase();
  const receiver = await startReceiver();
  // Long enough for the taker to start and claim on a loaded machine while this send runs.
  receiver.reply = () => ({ status: 200, delayMs: 5000 });
  try {
    const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/slow` });
    const event = await insertEvent(env.db);
    const callId = await queueCall(env.db, webhookId, event.id);
    // A lease shorter than the send: misconfigured on purpose, to force a takeover
    // (and no polling, so the stalled worker does not take the call back itself).
    const stalled = env.startWorker({ workerId: 'stalled', leaseMs: 500, pollMs: 60_000 });
    await receiver.waitForRequests(1);
    const taker = env.startWorker({ workerId: 'taker', pollMs: 100 });
    await receiver.waitForRequests(2);
    await eventually(async () => (await attemptsOf(env.db, callId)).length === 1 && true);
    await stalled.stop();
    await taker.stop();
    const attempts = await attemptsOf(env.db, callId);
    assert.deepEqual(
      attempts.map((a) => a.worker),
      ['taker'],
    );
    const call = await findCall(env.db, callId);
    assert.equal(call.status, 'success');
    assert.equal(call.lease_owner, null);
  } finally {
    await env.close();
    await receiver.close();
  }
});

test('each claim has its own token: a worker that took back its own expired lease cannot record the older attempt', async () => {
  const env = await openWorkerDatabase();
  try {
    const webhookId = await insertWebhook(env.db, { url: 'http://127.0.0.1:9/unused' });
    const event = await insertEvent(env.db);
    const callId = await queueCall(env.db, webhookId, event.id);
    // Long enough that the next statement runs within it, however loaded the machine.
    assert.equal((await claimDueCalls(env.db, 'w#1', 5000, 5)).calls.length, 1);
    assert.equal(
      (await claimDueCalls(env.db, 'w#2', 30_000, 5)).calls.length,
      0,
      'lease still live',
    );
    const again = await eventually(
      async () => (await claimDueCalls(env.db, 'w#2', 30_000, 5)).calls[0],
    );
    assert.equal(again?.leaseToken, 'w#2');
    assert.equal(await recordAttempt(env.db, outcome(callId, 'w#1')), false);
    assert.equal(await recordAttempt(env.db, outcome(callId, 'w#2')), true);
    assert.equal((await attemptsOf(env.db, callId)).length, 1);
  } finally {
    await env.close();
  }
});

test('stop() lets in-flight sends finish and record, and leaves the rest to other workers', async () => {
  const env = await openWorkerDatabase({ workerConcurrency: 2 });
  const receiver = await startReceiver();
  receiver.reply = () => ({ status: 200, delayMs: 400 });
  try {
    const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/stop` });
    const callIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const event = await insertEvent(env.db);
      callIds.push(await queueCall(env.db, webhookId, event.id));
    }
    const worker = env.startWorker({ workerId: 'stopping' });
    await receiver.waitForRequests(2);
    await worker.stop();
    assert.equal(receiver.requests.length, 2);
    const calls = await Promise.all(callIds.map((id) => findCall(env.db, id)));
    assert.equal(calls.filter((c) => c.status === 'success').length, 2);
    const left = calls.filter((c) => c.status === 'pending');
    assert.equal(left.length, 3);
    assert.ok(left.every((c) => c.lease_owner === null && c.due_at !== null));
    env.startWorker({ workerId: 'next' });
    await receiver.waitForRequests(5);
    for (const id of callIds) await settledCall(env.db, id, 'success');
  } finally {
    await env.close();
    await receiver.close();
  }
});

test('an attempt that gets no complete answer within the total timeout fails', async () => {
  const env = await openWorkerDatabase();
  const receiver = await startReceiver();
  receiver.reply = () => ({ status: 200, delayMs: 2000 });
  try {
    const webhookId = await insertWebhook(env.db, {
      url: `${receiver.url}/timeout`,
      auto_retry: false,
    });
    const event = await insertEvent(env.db);
    const callId = await queueCall(env.db, webhookId, event.id);
    env.startWorker({ timeouts: { connectMs: 2000, totalMs: 500 } });
    const call = await settledCall(env.db, callId, 'failed');
    assert.equal(call.response_status, null);
    assert.equal(call.response_payload, null);
    const [attempt] = await attemptsOf(env.db, callId);
    assert.equal(attempt?.error, 'no complete answer within 0.5 s');
    assert.ok((attempt?.duration_ms ?? 0) < 1500, `took ${attempt?.duration_ms} ms`);
  } finally {
    await env.close();
    await receiver.close();
  }
});

test('an idle worker is woken by a queued call, not by its poll', async () => {
  const env = await openWorkerDatabase();
  const receiver = await startReceiver();
  try {
    const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/woken` });
    const first = await queueCall(env.db, webhookId, (await insertEvent(env.db)).id);
    // An hour between polls: once the pass at start is done, only a wakeup (NOTIFY on
    // PostgreSQL, in-process on the embedded database) can deliver the second call.
    const worker = env.startWorker({ workerId: 'sleeper', pollMs: 3_600_000 });
    await settledCall(env.db, first, 'success');
    const second = await queueCall(env.db, webhookId, (await insertEvent(env.db)).id);
    await settledCall(env.db, second, 'success');
    assert.equal(receiver.requests.length, 2);
    await worker.stop();
  } finally {
    await env.close();
    await receiver.close();
  }
});
