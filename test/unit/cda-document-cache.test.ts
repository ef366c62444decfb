import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSchema, parse } from 'graphql';
import { DocumentCache } from '../../src/cda/document-cache.ts';

const schemaA = buildSchema('type Query { a: String }');
const schemaB = buildSchema('type Query { a: String }');

test('a document is kept per schema and query text', () => {
  const cache = new DocumentCache(1_000);
  const document = parse('{ a }');
  cache.set(schemaA, '{ a }', document);
  assert.equal(cache.get(schemaA, '{ a }'), document);
  assert.equal(cache.get(schemaB, '{ a }'), undefined, 'another schema validates anew');
  assert.equal(cache.get(schemaA, '{a}'), undefined, 'another text parses anew');
});

test('the least recently used texts go once the kept characters pass the bound', () => {
  const cache = new DocumentCache(160);
  // Sixteen texts of ten characters fill it.
  const texts = Array.from({ length: 17 }, (_, i) => `{ a } #${i}`.padEnd(10, ' '));
  for (const text of texts.slice(0, 16)) cache.set(schemaA, text, parse(text));
  assert.ok(cache.get(schemaA, texts[0] as string), 'read: now the most recently used');
  cache.set(schemaA, texts[16] as string, parse(texts[16] as string));
  assert.equal(cache.get(schemaA, texts[1] as string), undefined, 'the least recently used');
  for (const text of [texts[0], ...texts.slice(2)]) assert.ok(cache.get(schemaA, text as string));
});

test('a text longer than a sixteenth of the bound is not kept', () => {
  const cache = new DocumentCache(160);
  const long = '{ a }'.padEnd(11, ' ');
  cache.set(schemaA, long, parse(long));
  assert.equal(cache.get(schemaA, long), undefined);
  const short = '{ a }'.padEnd(10, ' ');
  cache.set(schemaA, short, parse(short));
  assert.ok(cache.get(schemaA, short));
});
