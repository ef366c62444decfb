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

// A change's first read comes from the schema cache at the version it read under the lock,
// when a read at that version kept it; every read after a write goes to the database.
describe('round trips of schema changes whose first read is kept', () => {
  test('a field update: a refused update keeps the field and its model, the next writes at once', async () => {
    const model = await buildModel(client);
    const field = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    // The version moved with the create: the model state is read, then kept.
    assert.deepEqual(await transactionOf(() => client.fields.update(field.id, { hint: 'one' })), [
      'begin; SELECT * FROM enter_environment',
      'select',
      'update fields',
      'insert into events',
      'commit',
    ]);
    // A refused change commits nothing: the version stays, and what it read is kept.
    await assert.rejects(client.fields.update(field.id, { api_key: 'Not A Key' }));
    assert.deepEqual(await transactionOf(() => client.fields.update(field.id, { hint: 'two' })), [
      'begin; SELECT * FROM enter_environment',
      'update fields',
      'insert into events',
      'commit',
    ]);
    assert.equal((await client.fields.find(field.id)).hint, 'two');
  });

  test('a model update: the model read by a request at the same version is not read again', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id });
    const update = () => client.itemTypes.update(model.id, { hint: `at ${Date.now()}` });
    assert.deepEqual(await transactionOf(update), [
      'begin; SELECT * FROM enter_environment',
      'select',
      'update item_types',
      'insert into events',
      'commit',
    ]);
    await client.itemTypes.find(model.id);
    assert.deepEqual(await transactionOf(update), [
      'begin; SELECT * FROM enter_environment',
      'update item_types',
      'insert into events',
      'commit',
    ]);
  });

  test('a field destroy reads the field with its model in one statement, none when kept', async () => {
    const model = await buildModel(client);
    const kept = await buildField(client, { itemTypeId: model.id });
    const other = await buildField(client, { itemTypeId: model.id });
    const destroyed = [
      'begin; SELECT * FROM enter_environment',
      'select',
      'select',
      'select',
      'select',
      'delete',
      'update blocks',
      'update items',
      'select',
      'select',
      'insert into events',
      'commit',
    ];
    assert.deepEqual(await transactionOf(() => client.fields.destroy(other.id)), destroyed);
    await assert.rejects(client.fields.update(kept.id, { api_key: 'Not A Key' }));
    assert.deepEqual(
      await transactionOf(() => client.fields.destroy(kept.id)),
      destroyed.filter((_, i) => i !== 1),
    );
  });

  test('a model destroy reads the model with its fields in one statement, none when kept', async () => {
    const destroyed = [
      'begin; SELECT * FROM enter_environment',
      'select',
      'select',
      'select',
      'select',
      'delete',
      'select',
      'select',
      'delete',
      'delete',
      'insert into events',
      'commit',
    ];
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id });
    assert.deepEqual(await transactionOf(() => client.itemTypes.destroy(model.id)), destroyed);
    const other = await buildModel(client);
    await buildField(client, { itemTypeId: other.id });
    await client.itemTypes.find(other.id);
    assert.deepEqual(
      await transactionOf(() => client.itemTypes.destroy(other.id)),
      destroyed.filter((_, i) => i !== 1),
    );
  });
});
