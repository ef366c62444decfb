import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepFreeze } from '../../src/domain/caches/deep-freeze.ts';
import { documentJson } from '../../src/http/document-json.ts';

const resource = () => ({
  type: 'item',
  id: 'a1',
  attributes: { title: 'Quote " and \\ backslash', tags: ['x', 'y'] },
});

test('a kept resource is written as JSON.stringify writes it, from the JSON made the first time', () => {
  const kept = deepFreeze(resource());
  const first = documentJson({ data: kept });
  assert.equal(first, JSON.stringify({ data: kept }));
  assert.deepEqual(JSON.parse(first), { data: resource() });
  // Another request's document around the same kept resource: the same text.
  assert.equal(documentJson({ data: kept }), first);
  const list = deepFreeze([resource(), resource()]);
  assert.equal(documentJson({ data: list }), JSON.stringify({ data: list }));
});

test('a resource not kept is serialized afresh each time, and other shapes whole', () => {
  const open = resource();
  assert.equal(documentJson({ data: open }), JSON.stringify({ data: open }));
  open.attributes.title = 'changed';
  assert.match(documentJson({ data: open }), /"changed"/);

  // Extra members are never dropped, whatever `data` is.
  const kept = deepFreeze(resource());
  const withMeta = { data: kept, meta: { total_count: 1 } };
  assert.equal(documentJson(withMeta), JSON.stringify(withMeta));
  const error = { data: [{ id: 'e', type: 'api_error', attributes: { code: 'NOT_FOUND' } }] };
  assert.equal(documentJson(error), JSON.stringify(error));
  assert.equal(documentJson({ data: null }), '{"data":null}');
  assert.equal(documentJson('text'), '"text"');
});
