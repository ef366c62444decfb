import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../../src/db/client.ts';
import {
  forgetAnswer,
  rememberAnswer,
  rememberedAnswer,
} from '../../src/domain/auth/assumed-access.ts';

// The token answers a PostgreSQL process remembers for the writes that may take them:
// the last one read per key, per database, at most 1,000 keys.

test('the last answer read is remembered per database, and forgotten when told', () => {
  const one = {} as Db;
  const other = {} as Db;
  rememberAnswer(one, 'cma/hash/', 'first');
  rememberAnswer(one, 'cma/hash/', 'second');
  assert.equal(rememberedAnswer(one, 'cma/hash/'), 'second');
  assert.equal(rememberedAnswer(other, 'cma/hash/'), undefined);
  forgetAnswer(one, 'cma/hash/');
  assert.equal(rememberedAnswer(one, 'cma/hash/'), undefined);
});

test('past 1,000 keys the remembered answers are dropped, not grown', () => {
  const db = {} as Db;
  for (let i = 0; i < 1_000; i++) rememberAnswer(db, `key ${i}`, i);
  assert.equal(rememberedAnswer(db, 'key 999'), 999);
  rememberAnswer(db, 'key 0', 'again');
  assert.equal(rememberedAnswer(db, 'key 999'), 999, 'a known key replaces its answer');
  rememberAnswer(db, 'key 1000', 1_000);
  assert.equal(rememberedAnswer(db, 'key 999'), undefined);
  assert.equal(rememberedAnswer(db, 'key 1000'), 1_000);
});
