import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateId } from '@datocms/cma-client-node';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { buildField, buildModel, buildRecord, itemTypeRef } from '../support/factories.ts';
import { recordEventCount } from '../support/fixtures.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

describe('records through the official client', () => {
  test('create, find, partial update, destroy', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    await buildField(client, { itemTypeId: model.id, api_key: 'views', field_type: 'integer' });
    const created = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Hello' });
    assert.equal(created.type, 'item');
    assert.equal(created.id.length, 22);
    assert.equal(created.title, 'Hello');
    assert.equal(created.views, null, 'an omitted field without default is null');
    assert.deepEqual(created.item_type, itemTypeRef(model.id));
    assert.equal(created.meta.status, 'published', 'without draft mode a record is published');
    assert.equal(typeof created.meta.current_version, 'string');

    const found = await client.items.find(created.id);
    assert.deepEqual(found, created);

    const updated = await client.items.update(created.id, { views: 3 });
    assert.equal(updated.title, 'Hello', 'omitted fields keep their values');
    assert.equal(updated.views, 3);
    assert.notEqual(updated.meta.current_version, created.meta.current_version);

    await client.items.destroy(created.id);
    await rejectsWithApiError(client.items.find(created.id), 'NOT_FOUND');
  });

  test('a client-chosen id is kept; a taken one is refused', async () => {
    const record = await buildRecord(client);
    const id = generateId();
    const created = await client.items.create({ id, item_type: record.item_type, title: 'x' });
    assert.equal(created.id, id);
    await rejectsWithApiError(
      client.items.create({ id, item_type: record.item_type, title: 'y' }),
      'INVALID_FIELD',
      { field: 'id', code: 'VALIDATION_UNIQUENESS' },
    );
  });

  test('omitted fields take their default value on create', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title', default_value: 'Untitled' });
    const record = await client.items.create({ item_type: itemTypeRef(model.id) });
    assert.equal(record.title, 'Untitled');
    const explicit = await client.items.create({ item_type: itemTypeRef(model.id), title: null });
    assert.equal(explicit.title, null, 'a value sent as null stays null');
  });

  test('values are validated against the field type and validators, naming the field', async () => {
    const model = await buildModel(client);
    const title = await buildField(client, {
      itemTypeId: model.id,
      api_key: 'title',
      validators: { required: {}, length: { max: 5 } },
    });
    await buildField(client, { itemTypeId: model.id, api_key: 'count', field_type: 'integer' });
    const events = await recordEventCount(server.db);
    let error = apiError(
      await client.items
        .create({ item_type: itemTypeRef(model.id), count: 'many' })
        .catch((e) => e),
    );
    const required = error.findError('INVALID_FIELD', { field: 'title' });
    assert.ok(required, JSON.stringify(error.errors));
    assert.equal(required.attributes.details.code, 'VALIDATION_REQUIRED');
    assert.equal(required.attributes.details.field_id, title.id);
    assert.equal(required.attributes.details.field_type, 'string');
    assert.ok(error.findError('INVALID_FIELD', { field: 'count', code: 'VALIDATION_INVALID' }));

    error = apiError(
      await client.items
        .create({ item_type: itemTypeRef(model.id), title: 'far too long' })
        .catch((e) => e),
    );
    assert.ok(error.findError('INVALID_FIELD', { field: 'title', code: 'VALIDATION_LENGTH' }));

    await rejectsWithApiError(
      client.items.create({ item_type: itemTypeRef(model.id), title: 'ok', nope: 1 } as never),
      'INVALID_FIELD',
      { field: 'nope' },
    );
    const list = await client.items.list({ filter: { type: model.id } });
    assert.equal(list.length, 0, 'a refused write stores nothing');
    assert.equal(await recordEventCount(server.db), events, 'a refused write emits nothing');
  });

  test('a stale meta.current_version is refused and changes nothing', async () => {
    const record = await buildRecord(client);
    const first = record.meta.current_version;
    const updated = await client.items.update(record.id, {
      title: 'second',
      meta: { current_version: first },
    });
    await rejectsWithApiError(
      client.items.update(record.id, { title: 'third', meta: { current_version: first } }),
      'STALE_ITEM_VERSION',
    );
    assert.deepEqual(await client.items.find(record.id), updated);
  });

  test('unique holds under concurrent writes', async () => {
    const model = await buildModel(client);
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'slug_like',
      validators: { unique: {} },
    });
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        client.items.create({ item_type: itemTypeRef(model.id), slug_like: 'same' }),
      ),
    );
    const won = attempts.filter((attempt) => attempt.status === 'fulfilled');
    assert.equal(won.length, 1, 'exactly one write stores the value');
    for (const attempt of attempts) {
      if (attempt.status === 'rejected') {
        assert.ok(
          apiError(attempt.reason).findError('INVALID_FIELD', {
            field: 'slug_like',
            code: 'VALIDATION_UNIQUENESS',
          }),
        );
      }
    }
    const other = await client.items.create({ item_type: itemTypeRef(model.id), slug_like: 'b' });
    await client.items.update(other.id, { slug_like: 'b' }); // its own value never clashes
    await rejectsWithApiError(
      client.items.update(other.id, { slug_like: 'same' }),
      'INVALID_FIELD',
      { field: 'slug_like', code: 'VALIDATION_UNIQUENESS' },
    );
  });

  test('links must name existing records of an allowed model', async () => {
    const target = await buildRecord(client);
    const otherRecord = await buildRecord(client);
    const model = await buildModel(client);
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'author',
      field_type: 'link',
      validators: { item_item_type: { item_types: [target.item_type.id] } },
    });
    const ok = await client.items.create({ item_type: itemTypeRef(model.id), author: target.id });
    assert.equal(ok.author, target.id);
    const references = await client.items.references(target.id);
    assert.deepEqual(
      references.map((item) => item.id),
      [ok.id],
    );
    assert.deepEqual(await client.items.references(otherRecord.id), []);
    await rejectsWithApiError(
      client.items.create({ item_type: itemTypeRef(model.id), author: generateId() }),
      'INVALID_FIELD',
      { field: 'author', code: 'VALIDATION_ITEM_ITEM_TYPE' },
    );
    await rejectsWithApiError(
      client.items.create({ item_type: itemTypeRef(model.id), author: otherRecord.id }),
      'INVALID_FIELD',
      { field: 'author', code: 'VALIDATION_ITEM_ITEM_TYPE' },
    );
  });

  test('singletons hold one record; has_singleton_item follows it', async () => {
    const model = await buildModel(client, { singleton: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'home' });
    let found = await client.itemTypes.find(model.id);
    assert.equal(found.has_singleton_item, true);
    assert.deepEqual(found.singleton_item, { type: 'item', id: record.id });
    await rejectsWithApiError(
      client.items.create({ item_type: itemTypeRef(model.id), title: 'again' }),
      'ITEM_TYPE_IS_SINGLETON',
    );
    await client.items.destroy(record.id);
    found = await client.itemTypes.find(model.id);
    assert.equal(found.has_singleton_item, false);
    assert.equal(found.singleton_item, null);
  });

  test('block models cannot have records of their own', async () => {
    const block = await buildModel(client, { modular_block: true });
    await rejectsWithApiError(
      client.items.create({ item_type: itemTypeRef(block.id) }),
      'INVALID_FIELD',
      { field: 'item_type' },
    );
  });

  test('list: filter[type] by id or api_key, filter[ids], pages, total_count, order_by', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'rank', field_type: 'integer' });
    const ranks = [3, 1, 2, 5, 4];
    const records = [];
    for (const rank of ranks)
      records.push(await client.items.create({ item_type: itemTypeRef(model.id), rank }));
    const byKey = await client.items.rawList({ filter: { type: model.api_key } });
    assert.equal(byKey.meta.total_count, 5);
    assert.deepEqual(
      byKey.data.map((item) => item.id),
      records.map((item) => item.id),
      'creation order by default',
    );
    const page = await client.items.rawList({
      filter: { type: model.id },
      page: { offset: 1, limit: 2 },
    });
    assert.equal(page.meta.total_count, 5);
    assert.deepEqual(
      page.data.map((item) => item.id),
      records.slice(1, 3).map((item) => item.id),
    );
    const ordered = await client.items.list({
      filter: { type: model.id },
      order_by: 'rank_DESC',
    });
    assert.deepEqual(
      ordered.map((item) => item.rank),
      [5, 4, 3, 2, 1],
    );
    const some = await client.items.list({
      filter: { ids: `${records[0]?.id},${records[4]?.id}` },
    });
    assert.equal(some.length, 2);
    const all = [];
    for await (const item of client.items.listPagedIterator(
      { filter: { type: model.id } },
      { perPage: 2 },
    ))
      all.push(item.id);
    assert.equal(all.length, 5);
    await rejectsWithApiError(
      client.items.list({ filter: { type: model.id }, page: { limit: 501 } }),
      'INVALID_PARAMS',
    );
  });

  test('drafts: draft_mode_active models create drafts; version=published hides them', async () => {
    const model = await buildModel(client, { draft_mode_active: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'draft' });
    assert.equal(record.meta.status, 'draft');
    assert.equal(record.meta.published_at, null);
    const published = await client.items.list({
      filter: { type: model.id },
      version: 'published',
    });
    assert.equal(published.length, 0);
    const current = await client.items.list({ filter: { type: model.id } });
    assert.equal(current.length, 1);
  });

  test('localized values are keyed by the environment locales', async () => {
    await client.site.update({ locales: ['en', 'it'] });
    try {
      const model = await buildModel(client, { all_locales_required: false });
      await buildField(client, {
        itemTypeId: model.id,
        api_key: 'title',
        localized: true,
        validators: { required: {} },
      });
      const record = await client.items.create({
        item_type: itemTypeRef(model.id),
        title: { en: 'Hello', it: 'Ciao' },
      });
      assert.deepEqual(record.title, { en: 'Hello', it: 'Ciao' });
      const error = apiError(
        await client.items
          .create({ item_type: itemTypeRef(model.id), title: { en: 'Hello', fr: 'Salut' } })
          .catch((e) => e),
      );
      assert.ok(error.findError('INVALID_FIELD', { field: 'title', code: 'INVALID_LOCALES' }));
      const missing = apiError(
        await client.items
          .create({ item_type: itemTypeRef(model.id), title: { en: null, it: 'Ciao' } })
          .catch((e) => e),
      );
      assert.ok(
        missing.findError('INVALID_FIELD', {
          field: 'title',
          locale: 'en',
          code: 'VALIDATION_REQUIRED',
        }),
        JSON.stringify(missing.errors),
      );
      await client.items.destroy(record.id);
    } finally {
      await client.site.update({ locales: ['en'] });
    }
  });

  test('the datocms CLI migration bookkeeping works', async () => {
    // What `datocms migrations:run` does (node_modules/datocms/lib/commands/migrations/run.js).
    const model = await client.itemTypes.create({
      name: 'Schema migration',
      api_key: 'schema_migration',
      draft_mode_active: false,
    });
    await client.fields.create(model.id, {
      label: 'Migration file name',
      api_key: 'name',
      field_type: 'string',
      validators: { required: {} },
    });
    await client.items.create({ item_type: model, name: '1700000000_first.js' });
    await client.items.create({ item_type: model, name: '1700000001_second.js' });
    const names = [];
    for await (const item of client.items.listPagedIterator({ filter: { type: model.id } }))
      names.push(item.name);
    assert.deepEqual(names, ['1700000000_first.js', '1700000001_second.js']);
  });

  test('validate endpoints run every check and save nothing', async () => {
    const model = await buildModel(client);
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'title',
      validators: { required: {} },
    });
    const events = await recordEventCount(server.db);
    await client.items.validateNew({ item_type: itemTypeRef(model.id), title: 'fine' });
    await rejectsWithApiError(
      client.items.validateNew({ item_type: itemTypeRef(model.id), title: null }),
      'INVALID_FIELD',
      { field: 'title', code: 'VALIDATION_REQUIRED' },
    );
    assert.equal((await client.items.list({ filter: { type: model.id } })).length, 0);
    const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'kept' });
    await client.items.validateExisting(record.id, { title: 'other' });
    await rejectsWithApiError(
      client.items.validateExisting(record.id, { title: null }),
      'INVALID_FIELD',
      { field: 'title', code: 'VALIDATION_REQUIRED' },
    );
    assert.deepEqual(await client.items.find(record.id), record);
    assert.equal(await recordEventCount(server.db), events + 1, 'only the create emitted an event');
  });

  test('destroying a model removes its records', async () => {
    const record = await buildRecord(client);
    await client.itemTypes.destroy(record.item_type.id);
    await rejectsWithApiError(client.items.find(record.id), 'NOT_FOUND');
  });
});
