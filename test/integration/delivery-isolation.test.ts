import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { claimDueCalls } from '../../src/webhook-worker/claim.ts';
import {
  insertEvent,
  insertWebhook,
  openWorkerDatabase,
  queueCall,
  settledCall,
} from '../support/delivery-fixtures.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

// One receiver that never answers must not hold up another webhook's deliveries.

let env: Awaited<ReturnType<typeof openWorkerDatabase>>;
let hung: Receiver;
let healthy: Receiver;

before(async () => {
  env = await openWorkerDatabase({ workerConcurrency: 16 });
  hung = await startReceiver();
  // Never answers: each of its requests holds a slot until the receiver closes.
  hung.reply = () => ({ status: 200, delayMs: Number.POSITIVE_INFINITY });
  healthy = await startReceiver();
});

after(async () => {
  await hung.close();
  await env.close();
  await healthy.close();
});

async function queueCalls(webhookId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push(await queueCall(env.db, webhookId, (await insertEvent(env.db)).id));
  return ids;
}

test('a claim passes over the calls of a webhook with no room left and takes those behind them', async () => {
  const crowded = await insertWebhook(env.db, { url: `${hung.url}/crowded` });
  const other = await insertWebhook(env.db, { url: `${healthy.url}/other` });
  try {
    const crowdedCalls = await queueCalls(crowded, 8);
    const [otherCall] = await queueCalls(other, 1);

    // Room for 2 of the crowded webhook's calls: the scan of 5 due calls leases 2.
    const first = await claimDueCalls(env.db, 'claimer#1', 60_000, 5, {
      named: new Map([[crowded, 2]]),
      others: 5,
    });
    assert.deepEqual(
      first.calls.map((call) => call.id),
      crowdedCalls.slice(0, 2),
    );
    assert.equal(first.scanned, 5, 'a full scan: more may be due');
    // No room left: its 6 other due calls are passed over, the other webhook's is taken.
    const second = await claimDueCalls(env.db, 'claimer#2', 60_000, 5, {
      named: new Map([[crowded, 0]]),
      others: 5,
    });
    assert.deepEqual(
      second.calls.map((call) => call.id),
      [otherCall],
    );
    assert.equal(second.scanned, 1);
  } finally {
    // Their calls go with them: no worker of the next test finds these leases.
    await env.db.deleteFrom('webhooks').where('id', 'in', [crowded, other]).execute();
  }
});

test("a receiver that never answers holds no more than its share: another webhook's call is delivered", async () => {
  const stuck = await insertWebhook(env.db, { url: `${hung.url}/stuck` });
  const fine = await insertWebhook(env.db, { url: `${healthy.url}/fine` });
  await queueCalls(stuck, 40);
  // Attempts are given all the time the test takes: the stuck ones keep their slots.
  env.startWorker({
    workerId: 'isolating',
    leaseMs: 3_600_000,
    timeouts: { connectMs: 60_000, totalMs: 1_800_000 },
  });
  // Seven eighths of the 16 slots: 14 requests wait on the receiver that never answers.
  await hung.waitForRequests(14, 120_000);
  const [fineCall = ''] = await queueCalls(fine, 1);
  await settledCall(env.db, fineCall, 'success', 120_000);
  assert.deepEqual(
    healthy.requests.map((request) => request.path),
    ['/fine'],
  );
  assert.equal(
    hung.requests.filter((request) => request.path === '/stuck').length,
    14,
    'the stuck webhook got no more than its share of the slots',
  );
});
