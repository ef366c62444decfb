import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { LOOPBACK } from '../support/delivery-fixtures.ts';
import {
  buildField,
  buildModel,
  buildRecord,
  buildWebhook,
  itemTypeRef,
} from '../support/factories.ts';
import { useReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer({ webhookAllow: LOOPBACK });
const client = server.client();
const receiver = useReceiver();

describe('record drafts, versions, events and environments', () => {
  test('publish and unpublish: draft → published → updated → draft', async () => {
    const model = await buildModel(client, { draft_mode_active: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const draft = await client.items.create({ item_type: itemTypeRef(model.id), title: 'v1' });
    assert.equal(draft.meta.status, 'draft');

    const published = await client.items.publish(draft.id);
    assert.equal(published.meta.status, 'published');
    assert.ok(published.meta.published_at);
    assert.ok(published.meta.first_published_at);
    let live = await client.items.list({ filter: { type: model.id }, version: 'published' });
    assert.deepEqual(
      live.map((item) => item.title),
      ['v1'],
    );

    const edited = await client.items.update(draft.id, { title: 'v2' });
    assert.equal(edited.meta.status, 'updated');
    live = await client.items.list({ filter: { type: model.id }, version: 'published' });
    assert.deepEqual(
      live.map((item) => item.title),
      ['v1'],
      'the published version keeps the published values',
    );
    const publishedFind = await client.items.find(draft.id, { version: 'published' });
    assert.equal(publishedFind.title, 'v1');

    const unpublished = await client.items.unpublish(draft.id);
    assert.equal(unpublished.meta.status, 'draft');
    assert.equal(unpublished.meta.published_at, null);
    live = await client.items.list({ filter: { type: model.id }, version: 'published' });
    assert.equal(live.length, 0);
  });

  test('bulk publish, unpublish and destroy count what they changed', async () => {
    const model = await buildModel(client, { draft_mode_active: true });
    const a = await client.items.create({ item_type: itemTypeRef(model.id) });
    const b = await client.items.create({ item_type: itemTypeRef(model.id) });
    const items = [
      { type: 'item' as const, id: a.id },
      { type: 'item' as const, id: b.id },
    ];
    const published = await client.items.rawBulkPublish({
      data: { type: 'item_bulk_publish_operation', relationships: { items: { data: items } } },
    });
    assert.deepEqual(published.meta, { successful: 2, failed: 0 });
    assert.equal((await client.items.find(a.id)).meta.status, 'published');
    await client.items.bulkUnpublish({ items: [{ type: 'item', id: a.id }] });
    assert.equal((await client.items.find(a.id)).meta.status, 'draft');
    assert.equal((await client.items.find(b.id)).meta.status, 'published');
    await client.items.destroy(b.id);
    const destroyed = await client.items.rawBulkDestroy({
      data: { type: 'item_bulk_destroy_operation', relationships: { items: { data: items } } },
    });
    assert.deepEqual(destroyed.meta, { successful: 1, failed: 1 });
    assert.equal((await client.items.list({ filter: { type: model.id } })).length, 0);
  });

  test('a bulk operation names at most 200 records (DatoCMS documents 200 per request)', async () => {
    const ids = (count: number) =>
      Array.from({ length: count }, (_, n) => ({ type: 'item' as const, id: `missing-${n}` }));
    // 200 are taken: none exists, so each one fails on its own.
    const destroyed = await client.items.rawBulkDestroy({
      data: { type: 'item_bulk_destroy_operation', relationships: { items: { data: ids(200) } } },
    });
    assert.deepEqual(destroyed.meta, { successful: 0, failed: 200 });
    const tooMany = ids(201);
    // Each call starts when its turn comes: a refusal that arrived while an earlier one was
    // still awaited would be an unhandled rejection, failing the test now and then.
    for (const call of [
      () => client.items.bulkPublish({ items: tooMany }),
      () => client.items.bulkUnpublish({ items: tooMany }),
      () => client.items.bulkDestroy({ items: tooMany }),
      () => client.items.bulkMoveToStage({ items: tooMany, stage: 'draft' }),
    ]) {
      await assert.rejects(call(), (error) => {
        const found = apiError(error).findError('INVALID_FORMAT');
        assert.match(String(found?.attributes.details.messages), /more than 200 items/);
        return true;
      });
    }
  });

  test('every save is a version; an old version can be restored', async () => {
    const record = await buildRecord(client, { attributes: { title: 'first' } });
    await client.items.update(record.id, { title: 'second' });
    const versions = await client.itemVersions.list(record.id);
    assert.equal(versions.length, 2);
    const [latest, oldest] = versions;
    assert.equal(latest?.title, 'second');
    assert.equal(latest?.meta.is_current, true);
    assert.equal(oldest?.title, 'first');
    assert.equal(oldest?.meta.is_current, false);
    assert.equal(oldest?.id, record.meta.current_version);
    const found = await client.itemVersions.find(oldest?.id ?? '');
    assert.deepEqual(found, oldest);

    const [restored, version] = await client.itemVersions.restore(oldest?.id ?? '');
    assert.equal(restored.title, 'first');
    assert.equal(restored.meta.current_version, version.id);
    assert.equal((await client.itemVersions.list(record.id)).length, 3);
    await rejectsWithApiError(client.itemVersions.find('nope'), 'NOT_FOUND');
  });

  test('a webhook receives record events with the record, its previous state and its model', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const other = await buildModel(client);
    receiver.requests.length = 0;
    await buildWebhook(client, {
      name: 'Records of one model',
      url: `${receiver.url}/items`,
      events: [
        {
          entity_type: 'item',
          event_types: ['create', 'update', 'delete', 'publish', 'unpublish'],
          filters: [{ entity_type: 'item_type', entity_ids: [model.api_key] }],
        },
      ],
      payload_api_version: '3',
      nested_items_in_payload: false,
      auto_retry: false,
    });
    await client.items.create({ item_type: itemTypeRef(other.id) }); // filtered out
    const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'a' });
    await client.items.update(record.id, { title: 'b' });
    await client.items.destroy(record.id);
    const requests = await receiver.waitForRequests(3);
    const bodies = requests.map((request) => JSON.parse(request.body));
    bodies.sort(
      (a, b) =>
        ['create', 'update', 'delete'].indexOf(a.event_type) -
        ['create', 'update', 'delete'].indexOf(b.event_type),
    );
    assert.deepEqual(
      bodies.map((body) => [body.entity_type, body.event_type, body.entity.id]),
      [
        ['item', 'create', record.id],
        ['item', 'update', record.id],
        ['item', 'delete', record.id],
      ],
    );
    const update = bodies[1];
    assert.equal(update.entity.attributes.title, 'b');
    assert.equal(update.previous_entity.attributes.title, 'a');
    assert.equal(update.related_entities[0].id, model.id);
    assert.equal(update.environment, 'main');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.requests.length, 3, 'the other model’s record was filtered out');
  });

  test('records are environment-scoped and forked with the rest', async () => {
    const record = await buildRecord(client, { attributes: { title: 'main' } });
    await client.environments.fork('main', { id: 'records-sandbox' });
    const sandbox = server.client({ environment: 'records-sandbox' });
    const copy = await sandbox.items.find(record.id);
    assert.equal(copy.title, 'main');
    assert.equal(copy.meta.current_version, record.meta.current_version);
    await sandbox.items.update(record.id, { title: 'sandbox' });
    assert.equal((await client.items.find(record.id)).title, 'main');
    const created = await sandbox.items.create({ item_type: record.item_type, title: 'only here' });
    await rejectsWithApiError(client.items.find(created.id), 'NOT_FOUND');
    // Identity sequences move past copied rows: new records still list after old ones.
    const list = await sandbox.items.list({ filter: { type: record.item_type.id } });
    assert.deepEqual(
      list.map((item) => item.id),
      [record.id, created.id],
    );
  });
});
