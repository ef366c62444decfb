import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  decodeValues,
  encodeValues,
  PART_MIN_BYTES,
  type ReadPart,
} from '../../src/domain/items/versions/version-values.ts';

/** What a store holding the encoded parts reads back (jsonb parses as JSON.parse does). */
function readBack(encoded: ReturnType<typeof encodeValues>) {
  const parts = new Map<string, ReadPart>();
  for (const part of encoded.parts.values()) {
    parts.set(part.hash, { value: JSON.parse(part.valueJson), refs: JSON.parse(part.refsJson) });
  }
  const skeleton = JSON.parse(JSON.stringify(encoded.skeleton));
  const refs = JSON.parse(JSON.stringify(encoded.refs));
  return decodeValues(skeleton, refs, parts);
}

const long = (fill: string) => fill.repeat(PART_MIN_BYTES * 3);

test('any values read back exactly as saved, whatever keys and shapes they hold', () => {
  const block = (id: string, title: string) => ({
    id,
    item_type_id: 'section',
    values: { title, body: long(title) },
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  });
  const values = {
    title: 'short',
    body: long('x'),
    localized: { en: long('e'), it: 'ciao', 'pt-BR': null },
    sections: [block('a', 'one'), block('b', 'two'), 'bare-id'],
    json: JSON.parse(
      `{"$": "${long('d')}", "$ref": 1, "__proto__": {"polluted": "${long('p')}"}, "0": [1, 2.5, true, false, null], "nested": [[{"deep": "${long('n')}"}]]}`,
    ),
    empty: {},
    list: [],
    number: 0,
  };
  const encoded = encodeValues(values);
  assert.ok(encoded.parts.size > 5, 'the large values are stored as parts');
  const decoded = readBack(encoded);
  assert.deepEqual(decoded, JSON.parse(JSON.stringify(values)));
  assert.ok(Object.hasOwn(decoded.json as object, '__proto__'), '__proto__ stays a key');
  assert.equal(({} as { polluted?: string }).polluted, undefined);
});

test('equal content is one part, so an unchanged value or block is stored once', () => {
  const body = 'b'.repeat(100_000);
  const first = encodeValues({ title: 'v1', body, blocks: [{ id: 'x', text: long('k') }] });
  const second = encodeValues({ title: 'v2', blocks: [{ text: long('k'), id: 'x' }], body });
  assert.deepEqual([...second.parts.keys()].sort(), [...first.parts.keys()].sort());
  const changed = encodeValues({ title: 'v3', body, blocks: [{ id: 'x', text: long('K') }] });
  const added = [...changed.parts.keys()].filter((hash) => !first.parts.has(hash));
  // The changed block and the list holding it; the body is not copied again.
  assert.ok(added.length >= 1 && added.length <= 2);
  const addedBytes = added.reduce(
    (sum, hash) => sum + (changed.parts.get(hash)?.valueJson.length ?? 0),
    0,
  );
  assert.ok(addedBytes < body.length, `${addedBytes} bytes added`);
});

test('small values stay inline: a small record stores no part', () => {
  const values = { title: 'hello', count: 3, tags: ['a', 'b'] };
  const encoded = encodeValues(values);
  assert.equal(encoded.parts.size, 0);
  assert.deepEqual(encoded.refs, []);
  assert.deepEqual(readBack(encoded), values);
});

test('a version naming a part that is not stored is an error, not a guess', () => {
  const encoded = encodeValues({ body: long('z') });
  assert.throws(() => decodeValues(encoded.skeleton, encoded.refs, new Map()), /not stored/);
});
