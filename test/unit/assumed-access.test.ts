import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../../src/db/client.ts';
import type { Actor } from '../../src/domain/actor.ts';
import {
  forgetAnswer,
  rememberAnswer,
  rememberedAnswer,
} from '../../src/domain/auth/assumed-access.ts';
import type { Kept } from '../../src/domain/auth/tokens.ts';

// The token answers a PostgreSQL process remembers for the writes that may take them:
// the last one read per key, per database, at most 1,000 keys.

/** An answer told apart by its access version. */
function answer(accessVersion: string): Kept {
  return { found: { actor: {} as Actor, environment: null, accessVersion }, lastAccessAt: null };
}

const versionOf = (kept: Kept | undefined) => kept?.found.accessVersion;

test('the last answer read is remembered per database, and forgotten when told', () => {
  const one = {} as Db;
  const other = {} as Db;
  rememberAnswer(one, 'cma/hash/', answer('1'));
  rememberAnswer(one, 'cma/hash/', answer('2'));
  assert.equal(versionOf(rememberedAnswer(one, 'cma/hash/')), '2');
  assert.equal(rememberedAnswer(other, 'cma/hash/'), undefined);
  forgetAnswer(one, 'cma/hash/');
  assert.equal(rememberedAnswer(one, 'cma/hash/'), undefined);
});

test('past 1,000 keys the remembered answers are dropped, not grown', () => {
  const db = {} as Db;
  for (let i = 0; i < 1_000; i++) rememberAnswer(db, `key ${i}`, answer(String(i)));
  assert.equal(versionOf(rememberedAnswer(db, 'key 999')), '999');
  rememberAnswer(db, 'key 0', answer('again'));
  assert.equal(versionOf(rememberedAnswer(db, 'key 999')), '999', 'a known key is replaced');
  rememberAnswer(db, 'key 1000', answer('1000'));
  assert.equal(rememberedAnswer(db, 'key 999'), undefined);
  assert.equal(versionOf(rememberedAnswer(db, 'key 1000')), '1000');
});
