import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildField, buildModel, buildRecord } from '../support/factories.ts';
import { roundTripsOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

// Field create and model create are most of a migration script's requests: these pin the
// statements their transaction sends, so a statement added back shows here.

const server = useTestServer();
const client = server.client();

/**
 * The statements of the one change `fn` makes, from its BEGIN (sent with the environment
 * entry) to its COMMIT: writes named by their table, reads as `select`. The
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
    // Writes by their table; reads (models with subqueries) only as reads.
    const write = /^(insert into|update) "env_\d+"\."(\w+)"|^(insert into|update) "(\w+)"/.exec(
      text,
    );
    return write ? `${write[1] ?? write[3]} ${write[2] ?? write[4]}` : (text.split(' ')[0] ?? '');
  });
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
      'insert into schema_menu_items',
      'insert into events',
      'commit',
    ]);
  });
});
