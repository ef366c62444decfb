import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inEnvironmentTransaction, loadScope } from '../../src/db/environment-scope.ts';
import { violatedUniqueConstraint } from '../../src/db/transaction.ts';
import { emitEvent } from '../../src/events/outbox.ts';
import { buildField, buildModel, buildRecord, buildWebhook } from '../support/factories.ts';
import { roundTripsOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

// Field create and model create are most of a migration script's requests, and field,
// model and record updates the hot paths of an editor: these pin the statements their
// transaction sends, so a statement added back shows here. A change's last writes go in
// its event's statement (emitEvent's LastWrites): such a statement is named by its writes,
// joined by ` + `.

const server = useTestServer();
const client = server.client();

/**
 * The statements of the one change `fn` makes, from its BEGIN (sent with the environment
 * entry) to its COMMIT: writes named by their tables, reads as `select`. The
 * in-process delivery worker's polls run on their own and are left out.
 */
async function transactionOf(fn: () => Promise<unknown>): Promise<string[]> {
  const sent = (await roundTripsOf(fn)).filter(
    (text) => !/webhook_calls|scheduled_actions/.test(text),
  );
  const start = sent.findIndex((text) =>
    text.startsWith('begin; SELECT * FROM enter_environment('),
  );
  const end = sent.indexOf('commit', start);
  assert.ok(start >= 0 && end > start, sent.join('\n'));
  return sent.slice(start, end + 1).map((text) => {
    if (text === 'commit' || text.startsWith('begin;')) return text.split('(')[0] ?? text;
    // Reads (models with subqueries) only as reads; writes, CTEs included, by their tables.
    if (text.startsWith('select')) return 'select';
    const writes = [
      ...text.matchAll(/(insert into|update|delete from) (?:"env_\d+"\.)?"(\w+)"/g),
    ].map(([, verb, table]) => `${verb} ${table}`);
    return writes.length > 0 ? writes.join(' + ') : (text.split(' ')[0] ?? '');
  });
}

async function count(table: 'events' | 'webhook_calls'): Promise<number> {
  const row = await server.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The last event recorded: its type and its entity's id and attributes. */
async function lastEvent() {
  return server.db
    .selectFrom('events')
    .select(['entity_type', 'event_type', 'entity_id', 'entity'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
}

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
      'insert into schema_menu_items + insert into events',
      'commit',
    ]);
  });

  test('a field update: the field read, then its update in its event', async () => {
    const field = await buildField(client);
    await buildWebhook(client, {
      events: [{ entity_type: 'item_type', event_types: ['update'] }],
    });
    const [events, calls] = [await count('events'), await count('webhook_calls')];
    assert.deepEqual(
      await transactionOf(() => client.fields.update(field.id, { hint: 'carried' })),
      [
        'begin; SELECT * FROM enter_environment',
        'select',
        'update fields + insert into events',
        'commit',
      ],
    );
    assert.equal((await client.fields.find(field.id)).hint, 'carried');
    assert.equal(await count('events'), events + 1);
    assert.equal(await count('webhook_calls'), calls + 1);
    const event = await lastEvent();
    assert.deepEqual([event.entity_type, event.event_type], ['item_type', 'update']);
    assert.equal(event.entity_id, field.item_type.id);
  });

  test('a field update that moves it sends its update first: the model is read after it', async () => {
    const model = await buildModel(client);
    const first = await buildField(client, { itemTypeId: model.id });
    const second = await buildField(client, { itemTypeId: model.id });
    assert.deepEqual(await transactionOf(() => client.fields.update(second.id, { position: 1 })), [
      'begin; SELECT * FROM enter_environment',
      'select',
      // The move reads its group and shifts the sibling; the field's own update goes
      // alone, before the model is read as the move left it (for the event).
      'select',
      'select',
      'update fields',
      'update fields',
      'select',
      'insert into events',
      // The shifted field, for `included`.
      'select',
      'commit',
    ]);
    const fields = await client.fields.list(model.id);
    assert.deepEqual(
      fields.map((field) => [field.id, field.position]),
      [
        [second.id, 1],
        [first.id, 2],
      ],
    );
  });

  test('a model update: the model read, then its update in its event', async () => {
    const model = await buildModel(client);
    const events = await count('events');
    assert.deepEqual(
      await transactionOf(() => client.itemTypes.update(model.id, { hint: 'carried' })),
      [
        'begin; SELECT * FROM enter_environment',
        'select',
        'update item_types + insert into events',
        'commit',
      ],
    );
    assert.equal((await client.itemTypes.find(model.id)).hint, 'carried');
    assert.equal(await count('events'), events + 1);
    const event = await lastEvent();
    assert.deepEqual([event.entity_type, event.event_type], ['item_type', 'update']);
    assert.equal((event.entity as { attributes: { hint: string } }).attributes.hint, 'carried');
  });

  test('a record update: the record read with its creator, then its writes in its event', async () => {
    const record = await buildRecord(client);
    const [field] = await client.fields.list(record.item_type.id);
    assert.ok(field);
    await buildWebhook(client, { events: [{ entity_type: 'item', event_types: ['update'] }] });
    const calls = await count('webhook_calls');
    assert.deepEqual(
      await transactionOf(() => client.items.update(record.id, { [field.api_key]: 'carried' })),
      [
        'begin; SELECT * FROM enter_environment',
        'select',
        'insert into item_versions + update items + insert into events',
        'commit',
      ],
    );
    assert.equal((await client.items.find(record.id))[field.api_key], 'carried');
    assert.equal((await client.itemVersions.list(record.id)).length, 2);
    assert.equal(await count('webhook_calls'), calls + 1);
    const event = await lastEvent();
    assert.deepEqual([event.entity_type, event.event_type], ['item', 'update']);
    assert.equal(event.entity_id, record.id);
  });

  test('a carried write that breaks a unique index fails its statement: no event, no write', async () => {
    const model = await buildModel(client);
    const other = await buildModel(client);
    const events = await count('events');
    const entity = { type: 'item_type', id: model.id, attributes: {} };
    await assert.rejects(
      inEnvironmentTransaction(await loadScope(server.db), (tx) =>
        emitEvent(
          tx,
          { entityType: 'item_type', eventType: 'update', entity, previousEntity: entity },
          {
            writes: [
              tx.db
                .updateTable('item_types')
                .set({ api_key: other.api_key })
                .where('id', '=', model.id),
            ],
            fixedShape: false,
          },
        ),
      ),
      // What rethrowUniqueness turns into the API's uniqueness error.
      (error) => violatedUniqueConstraint(error) === 'item_types_api_key_key',
    );
    assert.equal(await count('events'), events);
    assert.equal((await client.itemTypes.find(model.id)).api_key, model.api_key);
  });
});
