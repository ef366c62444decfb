import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { cyclesOf, unitGraph } from '../support/import-graph.ts';

const DOMAIN = join(import.meta.dirname, '../../src/domain');

// The one cycle left between domain folders: records (items) read the field-type registry
// and the model state that live with the schema writers (fields, item-types), which call
// records back to follow a schema change. It goes when what both read moves to a schema
// read model below them; until then no other cycle may appear, and this one may not grow.
const KNOWN = [['fields', 'item-types', 'items']];

test('no runtime import cycle between domain folders but the known one', () => {
  assert.deepEqual(cyclesOf(unitGraph(DOMAIN)), KNOWN);
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
