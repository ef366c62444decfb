import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rejectsWithApiError } from '../support/api-errors.ts';
import {
  blockInRequest,
  buildField,
  buildModel,
  buildModelWithBlocks,
  buildRecord,
  itemTypeRef,
} from '../support/factories.ts';
import { recordEventCount } from '../support/fixtures.ts';
import { itemPermission, tokenWithRole } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

describe('items.duplicate', () => {
  test('copies the values into a new record, with its own create event and the model included', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    await buildField(client, { itemTypeId: model.id, api_key: 'views', field_type: 'integer' });
    const original = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: 'Hello',
      views: 7,
    });
    const creates = await recordEventCount(server.db, 'create');

    const raw = await client.items.rawDuplicate(original.id);
    assert.notEqual(raw.data.id, original.id);
    assert.deepEqual(
      raw.included?.map((entity) => [entity.type, entity.id]),
      [['item_type', model.id]],
    );
    const copy = await client.items.find(raw.data.id);
    assert.equal(copy.title, 'Hello');
    assert.equal(copy.views, 7);
    assert.deepEqual(copy.item_type, itemTypeRef(model.id));
    assert.notEqual(copy.meta.current_version, original.meta.current_version);
    assert.equal(await recordEventCount(server.db, 'create'), creates + 1);
    assert.equal(
      (await client.items.find(original.id)).title,
      'Hello',
      'the original is unchanged',
    );

    const viaClient = await client.items.duplicate(original.id);
    assert.equal(viaClient.title, 'Hello');
  });

  test('a copy in a draft-mode model is a draft, whatever the original is', async () => {
    const model = await buildModel(client, { draft_mode_active: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const original = await client.items.create({ item_type: itemTypeRef(model.id), title: 'x' });
    await client.items.publish(original.id);
    const copy = await client.items.duplicate(original.id);
    assert.equal(copy.meta.status, 'draft');
    assert.equal(copy.meta.published_at, null);

    const plain = await buildRecord(client);
    assert.equal((await client.items.duplicate(plain.id)).meta.status, 'published');
  });

  test('unique string and slug values get a copy suffix, numbered on later copies', async () => {
    const model = await buildModel(client);
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'title',
      validators: { unique: {} },
    });
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'slug',
      field_type: 'slug',
      validators: { unique: {} },
    });
    await buildField(client, { itemTypeId: model.id, api_key: 'note' });
    const original = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: 'Post',
      slug: 'post',
      note: 'same',
    });
    const first = await client.items.duplicate(original.id);
    assert.equal(first.title, 'Post (copy)');
    assert.equal(first.slug, 'post-copy');
    assert.equal(first.note, 'same', 'values without unique are copied as they are');
    const second = await client.items.duplicate(original.id);
    assert.equal(second.title, 'Post (copy 2)');
    assert.equal(second.slug, 'post-copy-2');
  });

  test('refusals: a missing record, a singleton, a role without duplicate on the model', async () => {
    await rejectsWithApiError(client.items.duplicate('missing-record-id'), 'NOT_FOUND');

    const singleton = await buildModel(client, { singleton: true });
    await buildField(client, { itemTypeId: singleton.id, api_key: 'title' });
    const only = await client.items.create({ item_type: itemTypeRef(singleton.id), title: 'only' });
    await rejectsWithApiError(client.items.duplicate(only.id), 'ITEM_TYPE_IS_SINGLETON');

    const record = await buildRecord(client);
    const other = await buildRecord(client);
    const { token } = await tokenWithRole(server.db, {
      positive_item_type_permissions: [
        itemPermission('read'),
        itemPermission('duplicate', { item_type: record.item_type.id }),
      ],
    });
    const limited = server.client({ apiToken: token });
    const creates = await recordEventCount(server.db, 'create');
    await rejectsWithApiError(limited.items.duplicate(other.id), 'INSUFFICIENT_PERMISSIONS');
    assert.equal(
      await recordEventCount(server.db, 'create'),
      creates,
      'a refused duplicate emits nothing',
    );
    const copy = await limited.items.duplicate(record.id);
    assert.equal(copy.title, record.title);
  });

  test('a tree record’s copy keeps its parent; a sortable copy goes last', async () => {
    const tree = await buildModel(client, { tree: true });
    await buildField(client, { itemTypeId: tree.id, api_key: 'title' });
    const parent = await client.items.create({ item_type: itemTypeRef(tree.id), title: 'root' });
    const child = await client.items.create({
      item_type: itemTypeRef(tree.id),
      title: 'leaf',
      parent_id: parent.id,
    });
    const copy = await client.items.duplicate(child.id);
    assert.equal(copy.parent_id, parent.id);
    assert.ok((copy.position as number) > (child.position as number));
  });
});

describe('items.duplicate with blocks', () => {
  test('the copy gets blocks of its own, with the same content', async () => {
    const { block, model } = await buildModelWithBlocks(client);
    const original = await client.items.create({
      item_type: itemTypeRef(model.id),
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'One' } })],
    });
    const copy = await client.items.duplicate(original.id);
    const [originalBlock] = original.sections as string[];
    const [copiedBlock] = copy.sections as string[];
    assert.ok(copiedBlock);
    assert.notEqual(copiedBlock, originalBlock);
    const nested = await client.items.rawFind(copy.id, { nested: true });
    const blocks = nested.data.attributes.sections as { attributes: { title: string } }[];
    assert.equal(blocks[0]?.attributes.title, 'One');
    assert.deepEqual((await client.items.find(original.id)).sections, original.sections);
  });
});
