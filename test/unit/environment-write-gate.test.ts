import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../../src/db/client.ts';
import { closeWriteGate, throughWriteGate } from '../../src/db/environment-write-gate.ts';

// Gates are per database handle; any object stands for one here.
const handle = () => ({}) as Db;

/** Settles when the microtasks queued so far (and those they queue) have run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

test('closing a gate waits for the writers inside; writers that come later wait for it to open', async () => {
  const db = handle();
  const events: string[] = [];
  const inside = deferred();
  const first = throughWriteGate(db, 1, async () => {
    events.push('first in');
    await inside.promise;
    events.push('first out');
  });
  await settle();
  const closing = closeWriteGate(db, 1).then((open) => {
    events.push('closed');
    return open;
  });
  await settle();
  assert.deepEqual(events, ['first in'], 'the closer waits for the writer inside');
  const later = throughWriteGate(db, 1, async () => {
    events.push('later in');
  });
  const elsewhere = throughWriteGate(db, 2, async () => {
    events.push('other environment');
  });
  await elsewhere;
  inside.resolve();
  const open = await closing;
  await first;
  await settle();
  assert.deepEqual(events, ['first in', 'other environment', 'first out', 'closed']);
  open();
  await later;
  assert.deepEqual(events.at(-1), 'later in');
});

test('two closers of one gate take turns; handles do not share gates', async () => {
  const db = handle();
  const openFirst = await closeWriteGate(db, 1);
  let secondClosed = false;
  const second = closeWriteGate(db, 1).then((open) => {
    secondClosed = true;
    return open;
  });
  await settle();
  assert.equal(secondClosed, false);
  await throughWriteGate(handle(), 1, async () => {}); // another database: not held
  openFirst();
  const openSecond = await second;
  assert.equal(secondClosed, true);
  let wrote = false;
  const write = throughWriteGate(db, 1, async () => {
    wrote = true;
  });
  await settle();
  assert.equal(wrote, false, 'the second closer holds it now');
  openSecond();
  await write;
  assert.equal(wrote, true);
});
