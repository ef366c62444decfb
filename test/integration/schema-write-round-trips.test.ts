import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildField, buildModel, buildRecord } from '../support/factories.ts';
import { transactionOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

// Field create and model create are most of a migration script's requests: these pin the
// statements their transaction sends, so a statement added back shows here.

const server = useTestServer();
const client = server.client();

describe('round trips of schema writes', () => {
  test('a field create: the model read once, the insert, the event', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id });
    assert.deepEqual(await transactionOf(() => buildField(client, { itemTypeId: model.id })), [
      'begin; SELECT * FROM enter_environment',
      'select',
      'insert into fields',
      'insert into events',
      'commit',
    ]);
  });

  test('a field create on a model with records also gives them its default', async () => {
    const record = await buildRecord(client);
    assert.deepEqual(
      await transactionOf(() => buildField(client, { itemTypeId: record.item_type.id })),
      [
        'begin; SELECT * FROM enter_environment',
        'select',
        'insert into fields',
        'update items',
        'insert into events',
        'commit',
      ],
    );
  });

  test('a model create: one read of what it checks, then its rows and the event', async () => {
    assert.deepEqual(await transactionOf(() => buildModel(client)), [
      'begin; SELECT * FROM enter_environment',
      'select',
      'insert into item_types',
      'insert into menu_items',
      'insert into schema_menu_items',
      'insert into events',
      'commit',
    ]);
  });
});
