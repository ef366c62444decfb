import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadScope } from '../../src/db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../src/db/environment-transaction.ts';
import { violatedUniqueConstraint } from '../../src/db/transaction.ts';
import { newItemTypeDraft } from '../../src/domain/item-types/rules.ts';
import { emitEvent } from '../../src/events/outbox.ts';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { TEST_ENGINE } from '../support/databases.ts';
import { buildField, buildModel, buildRecord, buildWebhook } from '../support/factories.ts';
import { countRows } from '../support/fixtures.ts';
import { changeOf, requestRoundTripsOf, transactionOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

// Field create and model create are most of a migration script's requests, and field,
// model and record updates the hot paths of an editor: these pin the statements their
// transaction sends, so a statement added back shows here. A change's last writes go in
// its event's statement (emitEvent's LastWrites): such a statement is named by its writes,
// joined by ` + `.

const server = useTestServer();
const client = server.client();

const count = (table: 'events' | 'webhook_calls') => countRows(server.db, table);

// On PostgreSQL a record write, or a field or model create or update, takes the token
// answer its process last read, and checks after its entry that no token or role changed
// since (src/domain/auth/README.md); embedded, the process is told of every such change
// and keeps its answers.
const ACCESS_CHECK = TEST_ENGINE === 'postgres' ? 'SELECT fieldhouse_check_access; ' : '';
// There a schema change also reads, last and with its COMMIT, the schema version it left,
// which moves those answers' (src/db/schema-version-left.ts).
const VERSION_LEFT = TEST_ENGINE === 'postgres' ? 'select version left; ' : '';

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
  test('a field create: the model read once, then the insert in its event', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id });
    const { statements, result: field } = await changeOf(() =>
      buildField(client, { itemTypeId: model.id, hint: 'carried' }),
    );
    assert.deepEqual(statements, [
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
      `insert into fields + insert into events; ${VERSION_LEFT}commit`,
    ]);
    // What the create answered is what the database holds, and the model lists it.
    assert.deepEqual(await client.fields.find(field.id), field);
    assert.deepEqual(
      (await client.itemTypes.find(model.id)).fields.map(({ id }) => id).at(-1),
      field.id,
    );
  });

  test('a field create on a model with records also gives them its default', async () => {
    const record = await buildRecord(client);
    assert.deepEqual(
      await transactionOf(() => buildField(client, { itemTypeId: record.item_type.id })),
      [
        `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
        'insert into fields',
        'update items',
        `insert into events; ${VERSION_LEFT}commit`,
      ],
    );
  });

  test('a model create: one read of what it checks, then its rows in its event', async () => {
    const { statements, result: model } = await changeOf(() => buildModel(client));
    assert.deepEqual(statements, [
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
      `insert into item_types + insert into menu_items + insert into schema_menu_items + insert into events; ${VERSION_LEFT}commit`,
    ]);
    // What the create answered is what the database holds; its menu entry comes last.
    assert.deepEqual(await client.itemTypes.find(model.id), model);
    const entries = await client.menuItems.list();
    const entry = entries.find((candidate) => candidate.item_type?.id === model.id);
    assert.ok(entry);
    const topLevel = entries.filter((candidate) => candidate.parent === null);
    assert.equal(entry.position, Math.max(...topLevel.map((candidate) => candidate.position)));
    assert.equal(topLevel.filter((candidate) => candidate.position === entry.position).length, 1);
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
        `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
        `update fields + insert into events; ${VERSION_LEFT}commit`,
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
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
      // The move reads its group and shifts the sibling; the field's own update goes
      // alone, before the model is read as the move left it (for the event).
      'select',
      'select',
      'update fields',
      'update fields',
      'select',
      // The event goes with the next statement: the shifted field, for `included`.
      'insert into events; select',
      `${VERSION_LEFT}commit`,
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
        `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
        `update item_types + insert into events; ${VERSION_LEFT}commit`,
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
        `begin; SELECT enter_records_assuming; ${ACCESS_CHECK}select`,
        'insert into item_versions + update items + insert into events; commit',
      ],
    );
    assert.equal((await client.items.find(record.id))[field.api_key], 'carried');
    assert.equal((await client.itemVersions.list(record.id)).length, 2);
    assert.equal(await count('webhook_calls'), calls + 1);
    const event = await lastEvent();
    assert.deepEqual([event.entity_type, event.event_type], ['item', 'update']);
    assert.equal(event.entity_id, record.id);
  });

  test('a record create: its row, its version and its event in one statement, its creator the caller', async () => {
    const first = await buildRecord(client);
    const [field] = await client.fields.list(first.item_type.id);
    assert.ok(field);
    const { statements, result: created } = await changeOf(() =>
      buildRecord(client, {
        itemTypeId: first.item_type.id,
        attributes: { [field.api_key]: 'carried' },
      }),
    );
    assert.deepEqual(statements, [
      `begin; SELECT enter_records_assuming; ${ACCESS_CHECK}insert into item_versions + insert into items + insert into events; commit`,
    ]);
    const record = await client.items.find(created.id);
    assert.equal(record[field.api_key], 'carried');
    assert.equal((await client.itemVersions.list(record.id)).length, 1);
    const token = (await client.accessTokens.list()).find(
      (candidate) => candidate.id === record.creator?.id,
    );
    assert.ok(token, 'the creator is a token of the project');
    const event = await server.db
      .selectFrom('events')
      .select(['event_type', 'entity_id', 'related_entities'])
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    assert.deepEqual([event.event_type, event.entity_id], ['create', record.id]);
    const related = event.related_entities as { type: string; id: string }[];
    assert.deepEqual(
      related.map(({ type, id }) => [type, id]),
      [
        ['item_type', first.item_type.id],
        ['access_token', token.id],
      ],
    );
    // As the token reads itself: its last use is this very call, so today.
    const { data: read } = await client.accessTokens.rawFind(token.id);
    assert.equal(read.attributes.last_cma_access, 'today');
    assert.deepEqual(related[1], read);
  });

  test('a record create is one round trip and an update two, the token not read first', async () => {
    const first = await buildRecord(client);
    const [field] = await client.fields.list(first.item_type.id);
    assert.ok(field);
    const title = field.api_key;
    const create = () => buildRecord(client, { itemTypeId: first.item_type.id });
    const created = await create();
    const creates = await requestRoundTripsOf(create);
    assert.equal(creates.length, 1, creates.join('\n'));
    assert.match(creates[0] ?? '', /^begin; SELECT enter_records_assuming\(.*; commit$/s);
    const updates = await requestRoundTripsOf(() =>
      client.items.update(created.id, { [title]: 'updated' }),
    );
    assert.equal(updates.length, 2, updates.join('\n'));
    assert.equal((await client.items.find(created.id))[title], 'updated');
    for (const sent of [...creates, ...updates]) assert.doesNotMatch(sent, /token_hash/);
  });

  test('a record create right after a schema change through the same process runs once, its token not read', async () => {
    const first = await buildRecord(client);
    const model = first.item_type.id;
    await client.itemTypes.update(model, { hint: 'moves the schema version' });
    const sent = await requestRoundTripsOf(() => buildRecord(client, { itemTypeId: model }));
    // The model is read at its new version with the entry, then the create commits: the
    // entry found the environment at the version the change left, so it ran once.
    assert.equal(sent.length, 2, sent.join('\n'));
    assert.match(sent[0] ?? '', /^begin; SELECT enter_records_assuming\(/);
    for (const text of sent) assert.doesNotMatch(text, /token_hash|rollback/);
  });

  test('a model or field create or update is two round trips, the token not read first', async () => {
    await client.itemTypes.list();
    const trips = async (write: () => Promise<unknown>) => {
      const sent = await requestRoundTripsOf(write);
      for (const text of sent) assert.doesNotMatch(text, /token_hash|rollback/);
      return sent.length;
    };
    let model: { id: string } = { id: '' };
    assert.equal(
      await trips(async () => {
        model = await buildModel(client);
      }),
      2,
    );
    let field: { id: string } = { id: '' };
    assert.equal(
      await trips(async () => {
        field = await buildField(client, { itemTypeId: model.id });
      }),
      2,
    );
    assert.equal(await trips(() => client.fields.update(field.id, { hint: 'updated' })), 2);
    assert.equal(await trips(() => client.itemTypes.update(model.id, { hint: 'updated' })), 2);
  });

  test('every other write of a field, model, fieldset or menu entry: its token not read first, nothing rolled back', async () => {
    const model = await buildModel(client);
    const field = await buildField(client, { itemTypeId: model.id });
    await client.itemTypes.list();
    /** What one write sent, none of it a read of a token or a rollback. */
    const alone = async <T>(write: () => Promise<T>): Promise<T> => {
      let result: T | undefined;
      const sent = await requestRoundTripsOf(async () => {
        result = await write();
      });
      assert.ok(sent.length > 0);
      for (const text of sent) assert.doesNotMatch(text, /token_hash|rollback/);
      return result as T;
    };
    const copy = await alone(() => client.fields.duplicate(field.id));
    await alone(() => client.fields.destroy(copy.id));
    const fieldset = await alone(() => client.fieldsets.create(model.id, { title: 'Group' }));
    await alone(() => client.fieldsets.update(fieldset.id, { title: 'Renamed group' }));
    await alone(() => client.fieldsets.destroy(fieldset.id));
    const entry = await alone(() => client.menuItems.create({ label: 'Entry' }));
    await alone(() => client.menuItems.update(entry.id, { label: 'Renamed entry' }));
    await alone(() => client.menuItems.destroy(entry.id));
    const folder = await alone(() =>
      client.schemaMenuItems.create({ label: 'Folder', kind: 'item_type' }),
    );
    await alone(() => client.schemaMenuItems.update(folder.id, { label: 'Renamed folder' }));
    await alone(() => client.schemaMenuItems.destroy(folder.id));
    const twin = await alone(() => client.itemTypes.duplicate(model.id));
    await alone(() => client.itemTypes.destroy(twin.id));
    // Each did what it was asked.
    assert.deepEqual(
      (await client.fields.list(model.id)).map(({ id }) => id),
      [field.id],
    );
    assert.equal((await client.fieldsets.list(model.id)).length, 0);
    assert.ok(!(await client.menuItems.list()).some(({ id }) => id === entry.id));
    assert.ok(!(await client.schemaMenuItems.list()).some(({ id }) => id === folder.id));
    await rejectsWithApiError(client.itemTypes.find(twin.id), 'NOT_FOUND');
  });

  test('a write with an unknown token is refused after one read of it', async () => {
    const unknown = server.client({ apiToken: 'no-such-token-anywhere-0001' });
    const model = await buildModel(client);
    const sent = await requestRoundTripsOf(() =>
      rejectsWithApiError(
        unknown.items.create({ item_type: { type: 'item_type', id: model.id } }),
        'INVALID_AUTHORIZATION_HEADER',
      ),
    );
    assert.equal(sent.filter((text) => /token_hash/.test(text)).length, 1, sent.join('\n'));
    assert.equal(sent.length, 1, sent.join('\n'));
  });

  test('a record publish, unpublish and destroy: the record read, then its write in its event', async () => {
    const model = await buildModel(client, { draft_mode_active: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const record = await buildRecord(client, { itemTypeId: model.id, attributes: { title: 'x' } });
    const sequence = (write: string) => [
      `begin; SELECT enter_records_assuming; ${ACCESS_CHECK}select`,
      `${write} + insert into events; commit`,
    ];
    const events = await count('events');
    assert.deepEqual(
      await transactionOf(() => client.items.publish(record.id)),
      sequence('update items'),
    );
    const published = await client.items.find(record.id);
    assert.equal(published.meta.status, 'published');
    assert.ok(published.meta.published_at);
    assert.equal(published.meta.is_published_version_valid, true);
    assert.deepEqual(
      await transactionOf(() => client.items.unpublish(record.id)),
      sequence('update items'),
    );
    const unpublished = await client.items.find(record.id);
    assert.equal(unpublished.meta.status, 'draft');
    assert.equal(unpublished.meta.published_at, null);
    assert.deepEqual(
      await transactionOf(() => client.items.destroy(record.id)),
      sequence('delete from items'),
    );
    await rejectsWithApiError(client.items.find(record.id), 'NOT_FOUND');
    assert.equal(await count('events'), events + 3);
    assert.deepEqual(
      [(await lastEvent()).event_type, (await lastEvent()).entity_id],
      ['delete', record.id],
    );
  });

  test('a carried write that breaks a unique index fails its statement: no event, no write', async () => {
    const model = await buildModel(client);
    const other = await buildModel(client);
    const events = await count('events');
    const view = {
      itemType: newItemTypeDraft(model.id, false),
      children: { fieldIds: [], fieldsetIds: [] },
    };
    await assert.rejects(
      inEnvironmentTransaction(await loadScope(server.db), (tx) =>
        emitEvent(
          tx,
          { entityType: 'item_type', eventType: 'update', model: view, previous: view },
          {
            writes: [
              tx.db
                .updateTable('item_types')
                .set({ api_key: other.api_key })
                .where('id', '=', model.id),
            ],
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

// A change's first read comes from the schema cache at the version it read under the lock,
// when a read at that version kept it; every read after a write goes to the database.
describe('round trips of schema changes whose first read is kept', () => {
  test('a field update: a refused update keeps the field and its model, the next writes at once', async () => {
    const model = await buildModel(client);
    const field = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    // The version moved with the create: the model state is read, then kept.
    assert.deepEqual(await transactionOf(() => client.fields.update(field.id, { hint: 'one' })), [
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
      `update fields + insert into events; ${VERSION_LEFT}commit`,
    ]);
    // A refused change commits nothing: the version stays, and what it read is kept.
    await assert.rejects(client.fields.update(field.id, { api_key: 'Not A Key' }));
    assert.deepEqual(await transactionOf(() => client.fields.update(field.id, { hint: 'two' })), [
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}update fields + insert into events; ${VERSION_LEFT}commit`,
    ]);
    assert.equal((await client.fields.find(field.id)).hint, 'two');
  });

  test('a model update: the model read by a request at the same version is not read again', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id });
    const update = () => client.itemTypes.update(model.id, { hint: `at ${Date.now()}` });
    assert.deepEqual(await transactionOf(update), [
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
      `update item_types + insert into events; ${VERSION_LEFT}commit`,
    ]);
    await client.itemTypes.find(model.id);
    assert.deepEqual(await transactionOf(update), [
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}update item_types + insert into events; ${VERSION_LEFT}commit`,
    ]);
  });

  test('a field destroy reads the field with its model in one statement, none when kept', async () => {
    const model = await buildModel(client);
    const kept = await buildField(client, { itemTypeId: model.id });
    const other = await buildField(client, { itemTypeId: model.id });
    // The field with its model, whether a slug is made from it, the delete, its values'
    // removal with whether a record was invalid (then checked again), the event.
    const destroyed = [
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
      'select',
      'delete from fields',
      'update blocks + update items',
      // The field's value indexes, looked up in the catalog (none here, so none dropped).
      'SELECT',
      `insert into events; ${VERSION_LEFT}commit`,
    ];
    assert.deepEqual(await transactionOf(() => client.fields.destroy(other.id)), destroyed);
    await assert.rejects(client.fields.update(kept.id, { api_key: 'Not A Key' }));
    assert.deepEqual(
      await transactionOf(() => client.fields.destroy(kept.id)),
      destroyed.filter((_, i) => i !== 1),
    );
  });

  test('a field destroy presents its model as a read then finds it: the gap closed, its links released', async () => {
    const model = await buildModel(client);
    const fieldset = await client.fieldsets.create(model.id, { title: 'Group' });
    const title = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const inside = await buildField(client, { itemTypeId: model.id, fieldset: fieldset });
    const last = await buildField(client, { itemTypeId: model.id });
    await client.itemTypes.update(model.id, { title_field: title });
    await client.fields.destroy(title.id);
    const event = await lastEvent();
    const { data: read } = await client.itemTypes.rawFind(model.id);
    assert.deepEqual(event.entity, read);
    assert.equal(read.relationships.title_field.data, null);
    assert.deepEqual(
      read.relationships.fields.data.map(({ id }) => id),
      [inside.id, last.id],
    );
    assert.deepEqual(
      (await client.fields.list(model.id)).map((field) => [field.id, field.position]),
      [
        [inside.id, 1],
        [last.id, 2],
      ],
    );
  });

  test('a model destroy reads the model with its fields in one statement, none when kept', async () => {
    const destroyed = [
      `begin; SELECT enter_environment_assuming; ${ACCESS_CHECK}select`,
      'select',
      'select',
      'select',
      'delete from schema_menu_items',
      'select',
      'select',
      'delete from menu_items',
      'delete from item_types',
      // Its fields' value indexes, looked up in the catalog (none here, so none dropped).
      'SELECT',
      `insert into events; ${VERSION_LEFT}commit`,
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
