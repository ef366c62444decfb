import assert from 'node:assert/strict';
import { test } from 'node:test';
import { previousAsSent, previousAsStored } from '../../src/events/previous-entity.ts';

/** What jsonb gives back of a value: the same JSON, keys in jsonb's order. */
function throughJsonb<T>(value: T): T {
  const order = (a: string, b: string) =>
    Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));
  return JSON.parse(JSON.stringify(value), (_, node) =>
    node && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => order(a, b)))
      : node,
  );
}

const entity = {
  id: 'rec',
  type: 'item',
  attributes: { title: 'new', body: 'x'.repeat(10_000), tags: ['a'], seo: { title: 't' } },
  meta: { current_version: 'v2' },
};
const previous = {
  id: 'rec',
  type: 'item',
  attributes: { title: 'old', body: 'x'.repeat(10_000), tags: ['a'], seo: { title: 't' } },
  meta: { current_version: 'v1' },
};

test('an update event stores only the attributes its previous state does not share', () => {
  const stored = previousAsStored(entity, previous) as typeof previous;
  assert.deepEqual(stored.attributes, { title: 'old' });
  assert.ok(JSON.stringify(stored).length < 200);
});

test('delivery sends the previous state exactly as it was, key order included', () => {
  const stored = throughJsonb(previousAsStored(entity, previous));
  const sent = previousAsSent(throughJsonb(entity), stored);
  assert.equal(JSON.stringify(sent), JSON.stringify(throughJsonb(previous)));
});

test('previous states sharing nothing, or stored whole before, are sent as they are', () => {
  const other = { ...previous, attributes: { title: 'old' } };
  assert.deepEqual(previousAsStored(entity, other), other);
  assert.deepEqual(previousAsSent(entity, previous), previous);
  assert.equal(previousAsStored(entity, null), null);
  assert.equal(previousAsSent(entity, null), null);
});
