import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedMemo } from '../../src/bounded-memo.ts';

test('a value is worked out once per key, falsy ones included', () => {
  const memo = new BoundedMemo<string, number | undefined>(10);
  let calls = 0;
  const zero = () => {
    calls++;
    return 0;
  };
  assert.equal(memo.get('a', zero), 0);
  assert.equal(memo.get('a', zero), 0);
  assert.equal(
    memo.get('b', () => undefined),
    undefined,
  );
  assert.equal(
    memo.get('b', () => 1),
    undefined,
  );
  assert.equal(calls, 1);
});

test('past its limit the memo starts over instead of growing', () => {
  const memo = new BoundedMemo<number, number>(2);
  let calls = 0;
  const square = (n: number) => () => {
    calls++;
    return n * n;
  };
  memo.get(1, square(1));
  memo.get(2, square(2));
  memo.get(3, square(3)); // full: emptied, then 3 kept
  assert.equal(calls, 3);
  memo.get(3, square(3));
  assert.equal(calls, 3);
  memo.get(1, square(1));
  assert.equal(calls, 4);
});
