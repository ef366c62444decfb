import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEST_ENGINE } from '../support/databases.ts';
import { buildRecord } from '../support/factories.ts';
import { transactionOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

// A record change reads its record first; on the embedded engine, which keeps records read
// by id, that read comes from the record cache when a read kept the record (PostgreSQL
// keeps none: another process may write a record at any time).

const server = useTestServer();
const client = server.client();
const embedded = TEST_ENGINE === 'embedded';

test('a record update reads its record from the database unless a read kept it (embedded)', async () => {
  const record = await buildRecord(client);
  const [field] = await client.fields.list(record.item_type.id);
  assert.ok(field);
  const update = (value: string) => () =>
    client.items.update(record.id, { [field.api_key]: value });
  const read = [
    'begin; SELECT * FROM enter_environment',
    'select',
    'with',
    'insert into events',
    'commit',
  ];
  // The create's commit dropped what was kept of the environment's records.
  assert.deepEqual(await transactionOf(update('one')), read);
  await client.items.find(record.id);
  assert.deepEqual(
    await transactionOf(update('two')),
    embedded ? read.filter((text) => text !== 'select') : read,
  );
  // The update's commit dropped it again: the next change reads it.
  assert.deepEqual(await transactionOf(update('three')), read);
  assert.equal((await client.items.find(record.id))[field.api_key], 'three');
});
