import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthCache } from '../../src/domain/caches/auth-cache.ts';
import { MAX_KEPT_RECORD_BYTES, RecordCache } from '../../src/domain/caches/record-cache.ts';
import { SchemaCache } from '../../src/domain/caches/schema-cache.ts';

const at = (environmentNumber: number, version: number) => ({
  environmentNumber,
  version: String(version),
});

/** A loader that counts its calls and answers a fresh object each time. */
function loader() {
  const counter = {
    calls: 0,
    load: async () => {
      counter.calls += 1;
      return { call: counter.calls, nested: { list: [1, 2] } };
    },
  };
  return counter;
}

test('a document is loaded once per environment and version, then served frozen', async () => {
  const cache = new SchemaCache();
  const source = loader();
  const first = await cache.read(at(1, 5), 'model:a', source.load);
  const again = await cache.read(at(1, 5), 'model:a', source.load);
  assert.equal(source.calls, 1);
  assert.equal(again, first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.nested.list));
  assert.throws(() => {
    (first.nested.list as number[]).push(3);
  }, TypeError);
  await cache.read(at(2, 5), 'model:a', source.load);
  assert.equal(source.calls, 2, 'another environment is another snapshot');
  await cache.read(null, 'model:a', source.load);
  assert.equal(source.calls, 3, 'no version: no cache');
});

test('a newer version replaces the snapshot; an older one is served but not kept', async () => {
  const cache = new SchemaCache();
  const source = loader();
  await cache.read(at(1, 5), 'k', source.load);
  const newer = await cache.read(at(1, 6), 'k', source.load);
  assert.equal(newer.call, 2);
  const older = await cache.read(at(1, 5), 'k', source.load);
  assert.equal(older.call, 3);
  assert.equal((await cache.read(at(1, 6), 'k', source.load)).call, 2);
  assert.equal(cache.size(1), 1);
});

test('what was loaded while the snapshot was dropped or replaced is not kept; failures keep nothing', async () => {
  const cache = new SchemaCache();
  let calls = 0;
  await cache.read(at(1, 1), 'k', async () => {
    calls += 1;
    cache.forget(1);
    return 'stale';
  });
  await cache.read(at(1, 1), 'other', async () => {
    await cache.read(at(1, 2), 'x', async () => 'new');
    return 'loaded under 1';
  });
  assert.equal(cache.size(1), 1, 'only the document of version 2');
  await assert.rejects(
    cache.read(at(1, 2), 'missing', async () => {
      throw new Error('not found');
    }),
  );
  assert.equal(cache.size(1), 1);
  assert.equal(calls, 1);
});

test('the cache keeps at most its number of environments and of documents per environment', async () => {
  const cache = new SchemaCache({ environments: 2, entriesPerEnvironment: 3 });
  const source = loader();
  for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.read(at(1, 1), key, source.load);
  assert.equal(cache.size(1), 3);
  assert.equal(source.calls, 5);
  await cache.read(at(1, 1), 'e', source.load);
  assert.equal(source.calls, 6, 'past the limit, a document is served but not kept');

  await cache.read(at(2, 1), 'a', source.load);
  await cache.read(at(1, 1), 'a', source.load); // environment 1 is now the most recent
  await cache.read(at(3, 1), 'a', source.load);
  assert.equal(cache.size(2), 0, 'the least recently used environment went');
  assert.equal(cache.size(1), 3);
  assert.equal(cache.size(3), 1);
});

test('the authentication cache keeps nothing read across a change, and stays bounded', () => {
  const cache = new AuthCache<string>(2);
  const generation = cache.begin();
  cache.forget();
  cache.keep('token', 'stale', generation);
  assert.equal(cache.get('token'), undefined);
  cache.keep('a', 'A', cache.begin());
  cache.keep('b', 'B', cache.begin());
  assert.equal(cache.size, 2);
  cache.keep('c', 'C', cache.begin());
  assert.equal(cache.size, 1);
  assert.equal(cache.get('c'), 'C');
  cache.forget();
  assert.equal(cache.size, 0);
});

/** A record loader that counts its calls; `bytes` is what the values take as stored. */
function recordLoader(title: string, bytes = 100) {
  const counter = {
    calls: 0,
    load: async () => {
      counter.calls += 1;
      return { row: { values: { title } }, bytes };
    },
  };
  return counter;
}

test('a record is kept per environment and records version, frozen', async () => {
  const cache = new RecordCache<{ values: { title: string } }>();
  const one = recordLoader('A');
  const kept = await cache.read(at(1, 10), 'a', one.load);
  assert.equal(await cache.read(at(1, 10), 'a', one.load), kept);
  assert.equal(one.calls, 1);
  assert.ok(Object.isFrozen(kept?.values));
  // Another environment keeps its own.
  const other = recordLoader('other environment');
  assert.equal((await cache.read(at(2, 10), 'a', other.load))?.values.title, 'other environment');
  // A newer version misses, and replaces what its environment kept.
  const newer = recordLoader('A, later');
  assert.equal((await cache.read(at(1, 11), 'a', newer.load))?.values.title, 'A, later');
  assert.equal(newer.calls, 1);
  assert.equal(cache.size, 2);
  // A read at an older version is served from the database and not kept.
  const older = recordLoader('A, stale');
  assert.equal((await cache.read(at(1, 10), 'a', older.load))?.values.title, 'A, stale');
  assert.equal((await cache.read(at(1, 11), 'a', newer.load))?.values.title, 'A, later');
  assert.equal(newer.calls, 1);
  // Versions compare as numbers, not text.
  const hundred = recordLoader('A at 100');
  await cache.read(at(1, 100), 'a', hundred.load);
  await cache.read(at(1, 99), 'a', recordLoader('A at 99').load);
  assert.equal((await cache.read(at(1, 100), 'a', hundred.load))?.values.title, 'A at 100');
  assert.equal(hundred.calls, 1);
  // Forgetting an environment drops its rows only.
  cache.forget(1);
  assert.equal(cache.size, 1);
  await cache.read(at(1, 100), 'a', hundred.load);
  assert.equal(hundred.calls, 2);
});

test('a stamped row kept at an older records version serves again while its stamp is the same', async () => {
  const cache = new RecordCache<{ values: { title: string } }>();
  const stamped = (title: string, stamp: string) => async () => ({
    row: { values: { title } },
    bytes: 100,
    stamp,
  });
  const kept = await cache.read(at(1, 10), 'a', stamped('A', '7'));
  // The records moved (another record was written): kept through the announcement, and
  // the row read again at the new version is the same version of it, so the kept one serves.
  cache.forget(1);
  assert.equal(cache.size, 1);
  const again = await cache.read(at(1, 11), 'a', stamped('A, read again', '7'));
  assert.equal(again, kept);
  assert.equal(await cache.read(at(1, 11), 'a', stamped('unused', '0')), kept);
  // This record written: a new stamp, the new row.
  const written = await cache.read(at(1, 12), 'a', stamped('A, written', '8'));
  assert.equal(written?.values.title, 'A, written');
  assert.ok(Object.isFrozen(written?.values));
  // Another environment's row with the same id and stamp is not it.
  assert.equal((await cache.read(at(2, 12), 'a', stamped('other', '8')))?.values.title, 'other');
});

test('a missing record keeps nothing, and a large one is served but not kept', async () => {
  const cache = new RecordCache<{ values: { title: string } }>();
  assert.equal(await cache.read(at(1, 1), 'gone', async () => undefined), undefined);
  const large = recordLoader('large', MAX_KEPT_RECORD_BYTES + 1);
  assert.equal((await cache.read(at(1, 1), 'big', large.load))?.values.title, 'large');
  await cache.read(at(1, 1), 'big', large.load);
  assert.equal(large.calls, 2);
  assert.equal(cache.size, 0);
});

test('past its limit the record cache drops the least recently kept', async () => {
  const cache = new RecordCache<{ values: { title: string } }>(2);
  const a = recordLoader('A');
  const b = recordLoader('B');
  await cache.read(at(1, 1), 'a', a.load);
  await cache.read(at(1, 1), 'b', b.load);
  await cache.read(at(2, 1), 'c', recordLoader('C').load);
  assert.equal(cache.size, 2);
  await cache.read(at(1, 1), 'b', b.load);
  assert.equal(b.calls, 1, 'b is still kept');
  await cache.read(at(1, 1), 'a', a.load);
  assert.equal(a.calls, 2, 'a, the oldest, went');
  // Keeping a dropped b's room for a: c stays; forgetting environment 1 leaves it alone.
  cache.forget(1);
  assert.equal(cache.size, 1);
});

test('past its bytes the record cache drops the least recently kept, whatever their number', async () => {
  const cache = new RecordCache<{ values: { title: string } }>(100, 3 * 1000);
  for (const id of ['a', 'b', 'c']) await cache.read(at(1, 1), id, recordLoader(id, 1000).load);
  assert.equal(cache.size, 3);
  assert.equal(cache.bytes, 3000);
  const d = recordLoader('d', 1500);
  await cache.read(at(1, 1), 'd', d.load);
  // a and b went to make room: 1,000 (c) + 1,500 (d) fits, 2,000 + 1,500 would not.
  assert.equal(cache.size, 2);
  assert.equal(cache.bytes, 2500);
  const a = recordLoader('a', 1000);
  await cache.read(at(1, 1), 'a', a.load);
  assert.equal(a.calls, 1, 'a was dropped');
  // Forgetting an environment gives its bytes back.
  cache.forget(1);
  assert.equal(cache.bytes, 0);
});

test('a schema move is answered for its environment only, the highest announced version winning', () => {
  const cache = new AuthCache<string>();
  assert.equal(cache.currentVersion('schema', 1, '10'), '10');
  cache.versionMoved('schema', 1, '12');
  cache.versionMoved('schema', 1, '11'); // announced out of order: the sequence's highest is current
  assert.equal(cache.currentVersion('schema', 1, '10'), '12');
  assert.equal(
    cache.currentVersion('schema', 1, '13'),
    '13',
    'an entry read after the move keeps its own',
  );
  assert.equal(cache.currentVersion('schema', 2, '10'), '10');
  // Versions compare as numbers, not text.
  cache.versionMoved('schema', 2, '100');
  assert.equal(cache.currentVersion('schema', 2, '99'), '100');
});

test('forgetting drops entries and announced versions, and refuses answers read before it', () => {
  const cache = new AuthCache<string>();
  const before = cache.begin();
  cache.keep('a', 'answer', before);
  cache.versionMoved('schema', 1, '12');
  cache.forget();
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.currentVersion('schema', 1, '10'), '10');
  cache.keep('a', 'stale', before);
  assert.equal(cache.get('a'), undefined);
});
