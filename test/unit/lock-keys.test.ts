import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as lockKeys from '../../src/db/lock-keys.ts';

test('every advisory-lock key is distinct', () => {
  const keys = Object.values(lockKeys);
  assert.ok(keys.length >= 5);
  assert.equal(new Set(keys).size, keys.length);
});

// The keys' module; the module that takes the environment lock defines that key; the
// migrations define the SQL function that takes it with the key as a parameter.
const DEFINES_ITS_KEY = [
  join('src', 'db', 'lock-keys.ts'),
  join('src', 'db', 'environment-locks.ts'),
  join('src', 'db', 'migrations'),
];

/** Files that take an advisory lock yet do not import its key from lock-keys.ts. */
function keysNotFromTheModule(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => join(dir, file))
    .filter((path) => path.endsWith('.ts') && !DEFINES_ITS_KEY.some((d) => path.startsWith(d)))
    .filter((path) => {
      const text = readFileSync(path, 'utf8');
      return /pg_(?:try_)?advisory/.test(text) && !/from '[./]*\/db\/lock-keys\.ts'/.test(text);
    });
}

test('every file taking an advisory lock names its key from lock-keys.ts', () => {
  assert.deepEqual(keysNotFromTheModule('src'), []);
});
