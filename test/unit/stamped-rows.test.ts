import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StampedRows } from '../../src/domain/caches/stamped-rows.ts';

const row = (title: string) => ({ values: { title } });

test('a row is found only at the stamp it was kept at, in its environment and kind, frozen', () => {
  const rows = new StampedRows<{ values: { title: string } }>();
  const kept = rows.keep(1, 'list:current', '7', 'a', row('A'), 100);
  assert.ok(Object.isFrozen(kept.values));
  assert.equal(rows.get(1, 'list:current', { id: 'a', stamp: '7' }), kept);
  assert.equal(rows.get(1, 'list:current', { id: 'a', stamp: '8' }), undefined);
  assert.equal(rows.get(1, 'list:published', { id: 'a', stamp: '7' }), undefined);
  assert.equal(rows.get(2, 'list:current', { id: 'a', stamp: '7' }), undefined);
  // A newer version of the row replaces the older one.
  rows.keep(1, 'list:current', '8', 'a', row('A, written'), 100);
  assert.equal(rows.size, 1);
  assert.equal(rows.get(1, 'list:current', { id: 'a', stamp: '7' }), undefined);
});

test('past its rows or bytes the least recently used row goes; a large row is not kept', () => {
  const rows = new StampedRows<{ values: { title: string } }>(2, 1000, 600);
  rows.keep(1, 'k', '1', 'a', row('A'), 300);
  rows.keep(1, 'k', '2', 'b', row('B'), 300);
  // Used, a is the most recent: c pushes out b.
  assert.ok(rows.get(1, 'k', { id: 'a', stamp: '1' }));
  rows.keep(1, 'k', '3', 'c', row('C'), 300);
  assert.equal(rows.get(1, 'k', { id: 'b', stamp: '2' }), undefined);
  assert.deepEqual([rows.size, rows.bytes], [2, 600]);
  // A third row: the least recent (a) goes.
  rows.keep(1, 'k', '4', 'd', row('D'), 500);
  assert.equal(rows.get(1, 'k', { id: 'a', stamp: '1' }), undefined);
  assert.deepEqual([rows.size, rows.bytes], [2, 800]);
  // Room for rows, not for bytes: 300 more do not fit beside 800, so c, the least recent, goes.
  const byBytes = new StampedRows<{ values: { title: string } }>(10, 1000, 600);
  byBytes.keep(1, 'k', '1', 'c', row('C'), 300);
  byBytes.keep(1, 'k', '2', 'd', row('D'), 500);
  byBytes.keep(1, 'k', '3', 'f', row('F'), 300);
  assert.deepEqual([byBytes.size, byBytes.bytes], [2, 800]);
  assert.equal(byBytes.get(1, 'k', { id: 'c', stamp: '1' }), undefined);
  const large = row('large');
  assert.equal(rows.keep(1, 'k', '5', 'e', large, 601), large);
  assert.ok(!Object.isFrozen(large));
  assert.equal(rows.get(1, 'k', { id: 'e', stamp: '5' }), undefined);
});
