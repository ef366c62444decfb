import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@datocms/cma-client-node';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { type Db, openDatabase } from '../../src/db/client.ts';
import { createPGlite } from '../../src/db/engine/embedded.ts';
import { loadScope } from '../../src/db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../src/db/environment-transaction.ts';
import type { ProjectDatabase } from '../../src/db/schema.ts';
import { newItemTypeDraft } from '../../src/domain/item-types/rules.ts';
import { createWebhook } from '../../src/domain/webhooks/service.ts';
import { WEBHOOK_CALLS_CHANNEL } from '../../src/events/channel.ts';
import { emitEvent, type SchemaEvent } from '../../src/events/outbox.ts';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { createTestDatabase } from '../support/databases.ts';
import { eventually } from '../support/delivery-fixtures.ts';
import { webhookBody } from '../support/factories.ts';
import { countRows } from '../support/fixtures.ts';
import { useTestServer } from '../support/server.ts';

type Events = Parameters<Client['webhooks']['create']>[0]['events'];
const ALL_MODEL_EVENTS: Events[number]['event_types'] = ['create', 'update', 'delete'];

describe('model changes fan out to matching enabled webhooks', () => {
  const server = useTestServer();
  const client = server.client();

  /** `event_type:api_key` of every call a webhook got, in event order. */
  async function callsOf(webhookId: string): Promise<string[]> {
    const rows = await server.db
      .selectFrom('webhook_calls')
      .innerJoin('events', 'events.id', 'webhook_calls.event_id')
      .select(['webhook_calls.event_type', 'webhook_calls.entity_type', 'events.entity'])
      .where('webhook_calls.webhook_id', '=', webhookId)
      .orderBy('events.id')
      .execute();
    return rows.map((row) => {
      assert.equal(row.entity_type, 'item_type');
      const apiKey = (row.entity as { attributes: { api_key: string } }).attributes.api_key;
      return `${row.event_type}:${apiKey}`;
    });
  }

  const count = (table: 'events' | 'webhook_calls') => countRows(server.db, table);

  test('events, entity types, filters and the enabled flag decide who gets a call', async () => {
    const make = (name: string, events: Events, enabled = true) =>
      client.webhooks.create(webhookBody({ name, events, enabled }));
    const model = (filters: Events[number]['filters']): Events => [
      { entity_type: 'item_type', event_types: ALL_MODEL_EVENTS, filters },
    ];

    const everything = await make('everything', model(null));
    const createsOnly = await make('creates only', [
      { entity_type: 'item_type', event_types: ['create'] },
    ]);
    const disabled = await make('disabled', model(null), false);
    const postByApiKey = await make(
      'post by api_key',
      model([{ entity_type: 'item_type', entity_ids: ['post'] }]),
    );
    const eitherModel = await make(
      'ids are ORed',
      model([{ entity_type: 'item_type', entity_ids: ['missing', 'post'] }]),
    );
    const mainPrimary = await make(
      'main and primary',
      model([
        { entity_type: 'environment', entity_ids: ['main'] },
        { entity_type: 'environment_type', entity_ids: ['primary'] },
      ]),
    );
    const filtersAnded = await make(
      'filters are ANDed',
      model([
        { entity_type: 'item_type', entity_ids: ['post'] },
        { entity_type: 'environment', entity_ids: ['staging'] },
      ]),
    );
    const sandboxOnly = await make(
      'sandbox only',
      model([{ entity_type: 'environment_type', entity_ids: ['sandbox'] }]),
    );
    const recordsOnly = await make('records only', [
      { entity_type: 'item', event_types: ['create', 'update', 'delete'] },
    ]);
    const legacyFilter = await make('legacy filter', [
      {
        entity_type: 'item_type',
        event_types: ['update'],
        filter: { entity_type: 'item_type', entity_ids: ['post'] },
      } as never,
    ]);

    const post = await client.itemTypes.create({ name: 'Post', api_key: 'post' });
    const tag = await client.itemTypes.create({ name: 'Tag', api_key: 'tag' });
    // A filter on a model's id (not only its api_key) matches too.
    const tagById = await make(
      'tag by id',
      model([{ entity_type: 'item_type', entity_ids: [tag.id] }]),
    );
    await client.itemTypes.update(post.id, { name: 'Blog post' });
    await client.itemTypes.update(tag.id, { hint: 'Tags' });
    await client.itemTypes.destroy(tag.id);

    const all = ['create:post', 'create:tag', 'update:post', 'update:tag', 'delete:tag'];
    assert.deepEqual(await callsOf(everything.id), all);
    assert.deepEqual(await callsOf(createsOnly.id), ['create:post', 'create:tag']);
    assert.deepEqual(await callsOf(disabled.id), [], 'a disabled webhook gets no calls');
    assert.deepEqual(await callsOf(postByApiKey.id), ['create:post', 'update:post']);
    assert.deepEqual(await callsOf(eitherModel.id), ['create:post', 'update:post']);
    assert.deepEqual(await callsOf(mainPrimary.id), all);
    assert.deepEqual(await callsOf(filtersAnded.id), []);
    assert.deepEqual(await callsOf(sandboxOnly.id), []);
    assert.deepEqual(await callsOf(recordsOnly.id), []);
    assert.deepEqual(await callsOf(legacyFilter.id), ['update:post']);
    assert.deepEqual(await callsOf(tagById.id), ['update:tag', 'delete:tag']);

    // Switching webhooks on and off, and changing their events, applies to the next change.
    await client.webhooks.update(disabled.id, { enabled: true });
    await client.webhooks.update(everything.id, { enabled: false });
    await client.webhooks.update(createsOnly.id, {
      events: [{ entity_type: 'item_type', event_types: ['update'] }],
    });
    await client.itemTypes.update(post.id, { hint: 'Posts' });
    assert.deepEqual(await callsOf(disabled.id), ['update:post']);
    assert.deepEqual(await callsOf(everything.id), all);
    assert.deepEqual(await callsOf(createsOnly.id), ['create:post', 'create:tag', 'update:post']);
  });

  test('each call is a pending job for one event and one webhook', async () => {
    const webhook = await client.webhooks.create(
      webhookBody({
        name: 'jobs',
        events: [{ entity_type: 'item_type', event_types: ['create'] }],
      }),
    );
    const before = Date.now();
    const model = await client.itemTypes.create({ name: 'Job', api_key: 'job' });
    const calls = await server.db
      .selectFrom('webhook_calls')
      .innerJoin('events', 'events.id', 'webhook_calls.event_id')
      .select([
        'webhook_calls.created_at',
        'webhook_calls.manual_resend',
        'webhook_calls.attempted_auto_retries_count',
        'events.entity_id',
        'events.event_type',
      ])
      .where('webhook_calls.webhook_id', '=', webhook.id)
      .execute();
    assert.equal(calls.length, 1);
    const [call] = calls;
    assert.ok(call);
    assert.equal(call.entity_id, model.id);
    assert.equal(call.event_type, 'create');
    assert.equal(call.manual_resend, false);
    assert.equal(call.attempted_auto_retries_count, 0);
    assert.ok(call.created_at.getTime() >= before - 1000);
  });

  test('a refused change writes no event and no call', async () => {
    await client.webhooks.create(
      webhookBody({
        name: 'refusals',
        events: [{ entity_type: 'item_type', event_types: ALL_MODEL_EVENTS }],
      }),
    );
    await client.itemTypes.create({ name: 'Unique', api_key: 'unique' });
    const [events, calls] = [await count('events'), await count('webhook_calls')];
    await rejectsWithApiError(
      client.itemTypes.create({ name: 'Unique again', api_key: 'unique' }),
      'INVALID_FIELD',
    );
    await rejectsWithApiError(
      client.itemTypes.update('unique', { api_key: 'Not Valid' }),
      'INVALID_FIELD',
    );
    assert.equal(await count('events'), events);
    assert.equal(await count('webhook_calls'), calls);
  });
});

/** The engine under test, opened directly, with a listener on the workers' channel. */
type Outbox = { db: Db; notifications: string[]; close(): Promise<void> };

async function openOutbox(): Promise<Outbox> {
  const database = await createTestDatabase();
  const notifications: string[] = [];
  if (database.engine === 'embedded') {
    const pglite = await createPGlite(join(database.dataDir, 'pgdata'));
    await pglite.listen(WEBHOOK_CALLS_CHANNEL, (payload) => notifications.push(payload));
    const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 });
    const db = new Kysely<ProjectDatabase>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      notifications,
      close: async () => {
        await db.destroy();
        await pglite.close();
        await database.drop();
      },
    };
  }
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '', dbPoolSize: 2 });
  const listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  listener.on('notification', (message) => notifications.push(message.payload ?? ''));
  await listener.query(`LISTEN ${WEBHOOK_CALLS_CHANNEL}`);
  return {
    db: handle.db,
    notifications,
    close: async () => {
      await listener.end();
      await handle.close();
      await database.drop();
    },
  };
}

describe('the outbox writes the event and its calls in the caller’s transaction', () => {
  let outbox: Outbox;
  before(async () => {
    outbox = await openOutbox();
    await createWebhook(
      outbox.db,
      webhookBody({
        name: 'posts',
        events: [
          {
            entity_type: 'item_type',
            event_types: ['update'],
            filters: [{ entity_type: 'item_type', entity_ids: ['post'] }],
          },
        ],
      }),
    );
    await createWebhook(
      outbox.db,
      webhookBody({ name: 'all', events: [{ entity_type: 'item_type', event_types: ['update'] }] }),
    );
  });
  after(async () => {
    await outbox?.close();
  });

  const event = (apiKey: string): SchemaEvent => ({
    entityType: 'item_type',
    eventType: 'update',
    model: {
      itemType: { ...newItemTypeDraft(`id-${apiKey}`, false), api_key: apiKey },
      children: { fieldIds: [], fieldsetIds: [] },
    },
  });

  async function rows() {
    const events = await outbox.db.selectFrom('events').select('id').execute();
    const calls = await outbox.db.selectFrom('webhook_calls').selectAll().execute();
    return { events, calls };
  }

  /**
   * Notifications arrive asynchronously: a moment in which one that should not come
   * would show up (a wait for one that should come uses eventually()).
   */
  async function settle(): Promise<void> {
    await sleep(150);
  }

  test('a rolled-back transaction leaves no event, no call and sends no notification', async () => {
    await assert.rejects(
      inEnvironmentTransaction(await loadScope(outbox.db), async (tx) => {
        await emitEvent(tx, event('post'));
        const inside = await tx.project.selectFrom('webhook_calls').select('id').execute();
        assert.equal(inside.length, 2, 'the calls are written inside the transaction');
        throw new Error('the change failed after its event');
      }),
      /the change failed/,
    );
    await settle();
    assert.deepEqual(await rows(), { events: [], calls: [] });
    assert.deepEqual(outbox.notifications, []);
  });

  test('a committed event has one due call per matching webhook, and workers are woken on commit', async () => {
    await inEnvironmentTransaction(await loadScope(outbox.db), async (tx) => {
      await emitEvent(tx, event('post'));
      await settle();
      assert.deepEqual(outbox.notifications, [], 'nothing is announced before the commit');
    });
    await eventually(async () => outbox.notifications.length > 0);
    await settle();
    assert.equal(outbox.notifications.length, 1);

    const { events, calls } = await rows();
    assert.equal(events.length, 1);
    assert.equal(calls.length, 2);
    const now = Date.now();
    for (const call of calls) {
      assert.equal(call.event_id, events[0]?.id);
      assert.equal(call.status, 'pending');
      assert.equal(call.entity_type, 'item_type');
      assert.equal(call.event_type, 'update');
      assert.ok(call.due_at && call.due_at.getTime() <= now, 'due at once');
      assert.equal(call.manual_resend, false);
      assert.equal(call.request_headers, null);
      assert.equal(call.last_sent_at, null);
    }
  });

  test('an event no webhook wants writes no call and wakes nobody', async () => {
    outbox.notifications.length = 0;
    const before = await rows();
    await outbox.db
      .updateTable('webhooks')
      .set({ enabled: false })
      .where('name', '=', 'all')
      .execute();
    await inEnvironmentTransaction(await loadScope(outbox.db), (tx) => emitEvent(tx, event('tag')));
    await settle();
    const after = await rows();
    assert.equal(after.events.length, before.events.length + 1, 'the event itself is kept');
    assert.equal(after.calls.length, before.calls.length);
    assert.deepEqual(outbox.notifications, []);
  });
});
