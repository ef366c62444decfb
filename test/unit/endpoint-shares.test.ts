import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endpointShares, SLOW_ATTEMPT_MS } from '../../src/webhook-worker/endpoint-shares.ts';

test('a webhook may hold seven eighths of the slots, a quarter once its receiver is slow', () => {
  const shares = endpointShares(16);
  assert.deepEqual(shares.rooms(), { named: new Map(), others: 14 });
  for (let i = 0; i < 14; i++) shares.started('a');
  shares.started('b');
  assert.deepEqual(shares.rooms(), {
    named: new Map([
      ['a', 0],
      ['b', 13],
    ]),
    others: 14,
  });
  // One of its attempts ran into the timeout: the webhook is slow, 13 are still in flight.
  shares.finished('a', 8000);
  assert.equal(shares.rooms().named.get('a'), 0);
  for (let i = 0; i < 13; i++) shares.finished('a', SLOW_ATTEMPT_MS);
  assert.equal(shares.rooms().named.get('a'), 4, 'slow, and nothing in flight: 4 slots');
  // A quick answer makes it an ordinary webhook again.
  shares.started('a');
  shares.finished('a', SLOW_ATTEMPT_MS - 1);
  assert.equal(shares.rooms().named.has('a'), false);
  // An attempt whose duration is unknown (its outcome could not be recorded) changes nothing.
  shares.finished('b', null);
  assert.deepEqual(shares.rooms(), { named: new Map(), others: 14 });
});

test('with few slots every webhook may still hold one', () => {
  for (const concurrency of [1, 2, 3]) {
    const shares = endpointShares(concurrency);
    assert.ok(shares.rooms().others >= 1);
    shares.started('a');
    shares.finished('a', 60_000);
    assert.equal(shares.rooms().named.get('a'), 1);
  }
});
