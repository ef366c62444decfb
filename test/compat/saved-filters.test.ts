import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { tokenWithFlags } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

const itemTypeRef = (id: string) => ({ type: 'item_type' as const, id });

describe('item-type filters through the official client', () => {
  test('create, find, list, update, destroy', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
    const other = await client.itemTypes.create({ name: 'Page', api_key: 'page' });
    const created = await client.itemTypeFilters.create({
      name: 'Drafts',
      item_type: itemTypeRef(model.id),
      filter: { fields: { _status: { eq: 'draft' } } },
      columns: [
        { name: 'id', width: 0.2 },
        { name: '_updated_at', width: 0.8 },
      ],
      order_by: '_updated_at_DESC',
      shared: true,
    });
    assert.equal(created.type, 'item_type_filter');
    assert.deepEqual(created.item_type, itemTypeRef(model.id));
    assert.deepEqual(created.filter, { fields: { _status: { eq: 'draft' } } });
    assert.equal(created.order_by, '_updated_at_DESC');
    assert.equal(created.shared, true);

    const minimal = await client.itemTypeFilters.create({
      name: 'All',
      item_type: itemTypeRef(model.id),
    });
    assert.deepEqual(
      [minimal.filter, minimal.columns, minimal.order_by, minimal.shared],
      [{}, null, null, false],
    );

    assert.deepEqual(await client.itemTypeFilters.find(created.id), created);
    assert.deepEqual(
      (await client.itemTypeFilters.list()).map((f) => f.id),
      [created.id, minimal.id],
    );

    const updated = await client.itemTypeFilters.update(created.id, {
      name: 'Old drafts',
      item_type: itemTypeRef(other.id),
      columns: null,
    });
    assert.equal(updated.name, 'Old drafts');
    assert.deepEqual(updated.item_type, itemTypeRef(other.id));
    assert.equal(updated.columns, null);
    assert.equal(updated.order_by, '_updated_at_DESC', 'omitted attributes stay unchanged');

    assert.equal((await client.itemTypeFilters.destroy(minimal.id)).id, minimal.id);
    await rejectsWithApiError(client.itemTypeFilters.find(minimal.id), 'NOT_FOUND');

    // A model's filters go with it.
    await client.itemTypes.destroy(other.id);
    await rejectsWithApiError(client.itemTypeFilters.find(created.id), 'NOT_FOUND');
  });

  test('bad input is refused and changes nothing', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Bad', api_key: 'bad_filters' });
    const block = await client.itemTypes.create({
      name: 'Block',
      api_key: 'filter_block',
      modular_block: true,
    });
    const before = await client.itemTypeFilters.list();
    await rejectsWithApiError(
      client.itemTypeFilters.create({ name: '', item_type: itemTypeRef(model.id) }),
      'INVALID_FIELD',
      { field: 'name' },
    );
    await rejectsWithApiError(
      client.itemTypeFilters.create({ name: 'x', item_type: itemTypeRef('missing') }),
      'INVALID_FIELD',
      { field: 'item_type' },
    );
    await rejectsWithApiError(
      client.itemTypeFilters.create({ name: 'x', item_type: itemTypeRef(block.id) }),
      'INVALID_FIELD',
      { field: 'item_type' },
    );
    const raw = await server.request('POST', '/item-type-filters', {
      data: { type: 'item_type_filter', attributes: { name: 'No model' } },
    });
    assert.equal(raw.status, 422);
    const badWidth = await server.request('POST', '/item-type-filters', {
      data: {
        type: 'item_type_filter',
        attributes: { name: 'w', columns: [{ name: 'id', width: 2 }] },
        relationships: { item_type: { data: itemTypeRef(model.id) } },
      },
    });
    assert.equal(badWidth.status, 422);
    await rejectsWithApiError(client.itemTypeFilters.update('missing', { name: 'x' }), 'NOT_FOUND');
    assert.deepEqual(await client.itemTypeFilters.list(), before);
  });

  test('writes need can_manage_shared_filters', async () => {
    const model = await server.client().itemTypes.create({ name: 'Perm', api_key: 'perm' });
    const limited = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_edit_schema']),
    });
    await rejectsWithApiError(
      limited.itemTypeFilters.create({ name: 'x', item_type: itemTypeRef(model.id) }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.ok(Array.isArray(await limited.itemTypeFilters.list()));
  });

  test('a menu item may open a filter of its model; destroying the filter unlinks it', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Menu model', api_key: 'menu_model' });
    const other = await client.itemTypes.create({ name: 'Other model', api_key: 'other_model' });
    const filter = await client.itemTypeFilters.create({
      name: 'Menu view',
      item_type: itemTypeRef(model.id),
    });
    const filterRef = { type: 'item_type_filter' as const, id: filter.id };
    const menuItem = await client.menuItems.create({
      label: 'Menu view',
      item_type: itemTypeRef(model.id),
      item_type_filter: filterRef,
    });
    assert.deepEqual(menuItem.item_type_filter, filterRef);
    await rejectsWithApiError(
      client.menuItems.create({
        label: 'Wrong model',
        item_type: itemTypeRef(other.id),
        item_type_filter: filterRef,
      }),
      'INVALID_FIELD',
      { field: 'item_type_filter' },
    );
    await client.itemTypeFilters.destroy(filter.id);
    assert.equal((await client.menuItems.find(menuItem.id)).item_type_filter, null);
  });

  test('a fork copies item-type filters with their ids', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Forked', api_key: 'forked_filters' });
    const filter = await client.itemTypeFilters.create({
      name: 'Forked view',
      item_type: itemTypeRef(model.id),
      filter: { query: 'x' },
    });
    const menuItem = await client.menuItems.create({
      label: 'Forked view',
      item_type: itemTypeRef(model.id),
      item_type_filter: { type: 'item_type_filter', id: filter.id },
    });
    await client.environments.fork('main', { id: 'filters-sandbox' });
    const sandbox = server.client({ environment: 'filters-sandbox' });
    assert.deepEqual(await sandbox.itemTypeFilters.find(filter.id), filter);
    assert.deepEqual(await sandbox.menuItems.find(menuItem.id), menuItem);
    await sandbox.itemTypeFilters.update(filter.id, { name: 'Sandbox view' });
    assert.equal((await client.itemTypeFilters.find(filter.id)).name, 'Forked view');
  });
});

describe('upload filters through the official client', () => {
  test('create, find, list, update, destroy', async () => {
    const client = server.client();
    const created = await client.uploadFilters.create({
      name: 'Big images',
      filter: { type: { eq: 'image' }, size: { gt: 1_000_000 } },
      shared: true,
    });
    assert.equal(created.type, 'upload_filter');
    assert.deepEqual(created.filter, { type: { eq: 'image' }, size: { gt: 1_000_000 } });
    assert.equal(created.shared, true);
    assert.deepEqual(await client.uploadFilters.find(created.id), created);
    assert.deepEqual(
      (await client.uploadFilters.list()).map((f) => f.id),
      [created.id],
    );
    const updated = await client.uploadFilters.update(created.id, {
      name: 'Huge images',
      filter: { size: { gt: 10_000_000 } },
    });
    assert.equal(updated.name, 'Huge images');
    assert.deepEqual(updated.filter, { size: { gt: 10_000_000 } });
    assert.equal(updated.shared, true, 'omitted attributes stay unchanged');
    assert.equal((await client.uploadFilters.destroy(created.id)).id, created.id);
    await rejectsWithApiError(client.uploadFilters.find(created.id), 'NOT_FOUND');
  });

  test('bad input is refused; writes need can_manage_shared_filters; a fork copies them', async () => {
    const client = server.client();
    await rejectsWithApiError(
      client.uploadFilters.create({ name: ' ', filter: {}, shared: false }),
      'INVALID_FIELD',
      { field: 'name' },
    );
    const notObject = await server.request('POST', '/upload-filters', {
      data: {
        type: 'upload_filter',
        attributes: { name: 'x', filter: 'type:image', shared: false },
      },
    });
    assert.equal(notObject.status, 422);
    await rejectsWithApiError(
      client.uploadFilters.update('missing', { name: 'x', filter: {} }),
      'NOT_FOUND',
    );
    assert.deepEqual(await client.uploadFilters.list(), []);

    const limited = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_edit_schema']),
    });
    await rejectsWithApiError(
      limited.uploadFilters.create({ name: 'x', filter: {}, shared: false }),
      'INSUFFICIENT_PERMISSIONS',
    );

    const filter = await client.uploadFilters.create({
      name: 'Kept',
      filter: { a: 1 },
      shared: false,
    });
    await client.environments.fork('main', { id: 'upload-filters-sandbox' });
    const sandbox = server.client({ environment: 'upload-filters-sandbox' });
    assert.deepEqual(await sandbox.uploadFilters.find(filter.id), filter);
    await sandbox.uploadFilters.destroy(filter.id);
    assert.deepEqual(await client.uploadFilters.find(filter.id), filter);
  });
});
