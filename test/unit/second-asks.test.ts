import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SecondAsks } from '../../src/domain/caches/second-asks.ts';

const at = (version: string, environmentNumber = 1) => ({ environmentNumber, version });

test('a key is asked before only at the same version and environment', () => {
  const asks = new SecondAsks();
  assert.equal(asks.askedBefore(at('1'), 'page'), false);
  assert.equal(asks.askedBefore(at('1'), 'page'), true);
  assert.equal(asks.askedBefore(at('1'), 'page'), true);
  assert.equal(asks.askedBefore(at('1'), 'other page'), false);
  assert.equal(asks.askedBefore(at('1', 2), 'page'), false);
  // A newer version: asked anew, and the older one's ask is gone.
  assert.equal(asks.askedBefore(at('2'), 'page'), false);
  assert.equal(asks.askedBefore(at('2'), 'page'), true);
  assert.equal(asks.askedBefore(at('1'), 'page'), false);
});

test('asks are remembered up to a bound, the oldest forgotten first', () => {
  const asks = new SecondAsks(3);
  for (const key of ['a', 'b', 'c', 'd']) asks.askedBefore(at('1'), key);
  assert.equal(asks.size, 3);
  assert.equal(asks.askedBefore(at('1'), 'd'), true);
  assert.equal(asks.askedBefore(at('1'), 'a'), false);
  // Asked again, a key becomes the newest: 'c' is not the one a new key pushes out.
  assert.equal(asks.askedBefore(at('1'), 'c'), true);
  asks.askedBefore(at('1'), 'e');
  assert.equal(asks.askedBefore(at('1'), 'c'), true);
  assert.equal(asks.askedBefore(at('1'), 'b'), false);
  // Long keys are remembered by digest: two that differ only at their end stay apart.
  const long = 'x'.repeat(16 * 1024);
  assert.equal(asks.askedBefore(at('1'), `${long}1`), false);
  assert.equal(asks.askedBefore(at('1'), `${long}2`), false);
  assert.equal(asks.askedBefore(at('1'), `${long}1`), true);
});
