import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenWindows } from '../../src/rate-limit/token-windows.ts';

/** A clock the test moves by hand. */
function clock(): { now: () => number; advance: (ms: number) => void } {
  let at = 1_000_000;
  return { now: () => at, advance: (ms) => (at += ms) };
}

const PER_SECOND_AND_MINUTE = [
  { limit: 3, windowSeconds: 1 },
  { limit: 5, windowSeconds: 60 },
];

test('each window counts; the nearest limit is the one reported', () => {
  const time = clock();
  const windows = new TokenWindows(PER_SECOND_AND_MINUTE, time.now);
  assert.deepEqual(windows.hit('a'), { admitted: true, limit: 3, remaining: 2 });
  assert.deepEqual(windows.hit('a'), { admitted: true, limit: 3, remaining: 1 });
  assert.deepEqual(windows.hit('a'), { admitted: true, limit: 3, remaining: 0 });
  time.advance(400);
  assert.deepEqual(windows.hit('a'), { admitted: false, limit: 3, resetSeconds: 1 });
  assert.deepEqual(windows.hit('b'), { admitted: true, limit: 3, remaining: 2 }, 'per token');
  time.advance(600);
  // The second closed; the minute holds 3 of 5, so it is now the nearer limit.
  assert.deepEqual(windows.hit('a'), { admitted: true, limit: 5, remaining: 1 });
  assert.deepEqual(windows.hit('a'), { admitted: true, limit: 5, remaining: 0 });
});

test('a refusal waits for the last full window, and refused requests count nowhere', () => {
  const time = clock();
  const windows = new TokenWindows(PER_SECOND_AND_MINUTE, time.now);
  for (let i = 0; i < 3; i++) windows.hit('a');
  time.advance(1000);
  windows.hit('a');
  windows.hit('a');
  // Both windows are full: the minute's, opened 1 s ago, closes in 59 s.
  assert.deepEqual(windows.hit('a'), { admitted: false, limit: 5, resetSeconds: 59 });
  time.advance(58_500);
  for (let i = 0; i < 10; i++) assert.equal(windows.hit('a').admitted, false);
  assert.deepEqual(windows.hit('a'), { admitted: false, limit: 5, resetSeconds: 1 });
  time.advance(500);
  assert.deepEqual(windows.hit('a'), { admitted: true, limit: 3, remaining: 2 });
});

test('tokens followed are bounded: the least recently seen one is forgotten', () => {
  const time = clock();
  const windows = new TokenWindows([{ limit: 1, windowSeconds: 60 }], time.now, 3);
  for (const token of ['a', 'b', 'c']) windows.hit(token);
  assert.equal(windows.hit('a').admitted, false, 'a is seen again: now the most recent');
  for (let i = 0; i < 100; i++) windows.hit(`flood-${i}`);
  assert.equal(windows.size, 3);
  assert.equal(windows.hit('b').admitted, true, 'b was forgotten and starts afresh');
});
