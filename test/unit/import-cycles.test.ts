import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { cyclesOf, unitGraph } from '../support/import-graph.ts';

const DOMAIN = join(import.meta.dirname, '../../src/domain');

// What records and schema writers both read lives in `schema/`, below both; the writers
// call records to follow a schema change, and records never call the writers. So no two
// domain folders reach one another (src/domain/schema/README.md).
test('no runtime import cycle between domain folders', () => {
  assert.deepEqual(cyclesOf(unitGraph(DOMAIN)), []);
});

test('the cycle finder reports each set of folders that reach one another', () => {
  const graph = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set(['a'])],
    ['d', new Set(['a'])],
  ]);
  assert.deepEqual(cyclesOf(graph), [['a', 'b', 'c']]);
  assert.deepEqual(
    cyclesOf(
      new Map([
        ['a', new Set(['b'])],
        ['b', new Set<string>()],
      ]),
    ),
    [],
  );
});
