import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// A record's own locales: the locale keys its localized values share. DatoCMS: with "All
// locales required?" off "you can just define a subset of them (as long as all localized
// fields express the exact same subset!)"; with it on, every environment locale. The site
// has two locales here, `en` (main) and `it`.

let server: TestServer;
let client: Client;
before(async () => {
  server = await startTestServer();
  client = server.client();
  await client.site.update({ locales: ['en', 'it'] });
});
after(async () => {
  await server?.close();
});

/**
 * A model with a required localized `title`, a localized `body`, a localized `tagline` with
 * a default in each locale, and a non-localized `code`.
 */
async function localizedModel(overrides: { all_locales_required?: boolean; draft?: boolean } = {}) {
  const model = await buildModel(client, {
    all_locales_required: overrides.all_locales_required ?? false,
    draft_mode_active: overrides.draft ?? false,
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'title',
    localized: true,
    validators: { required: {} },
  });
  await buildField(client, { itemTypeId: model.id, api_key: 'body', localized: true });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'tagline',
    localized: true,
    default_value: { en: 'Default', it: 'Predefinito' },
  });
  await buildField(client, { itemTypeId: model.id, api_key: 'code' });
  return model;
}

const localesOf = (value: unknown) => Object.keys(value as Record<string, unknown>).sort();

describe('a record is in the locales its localized values give it', () => {
  test('a record in `it` only holds `it` keys; required values of `en` are not asked for', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
      body: { it: 'Testo' },
      code: 'A',
    });
    assert.deepEqual(record.title, { it: 'Ciao' });
    assert.deepEqual(record.body, { it: 'Testo' });
    // An omitted localized field takes its default in the record's locales only.
    assert.deepEqual(record.tagline, { it: 'Predefinito' });
    assert.deepEqual((await client.items.find(record.id)).title, { it: 'Ciao' });
    const [version] = await client.itemVersions.list(record.id);
    assert.deepEqual(version?.title, { it: 'Ciao' });
  });

  test('a locale sent empty is still one of the record’s locales', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'Hello', it: 'Ciao' },
      body: { en: null, it: null },
    });
    assert.deepEqual(record.body, { en: null, it: null });
    assert.deepEqual(localesOf(record.tagline), ['en', 'it']);
  });

  test('a record given no localized value is in every locale, as its defaults are', async () => {
    const model = await buildModel(client, { all_locales_required: false });
    await buildField(client, { itemTypeId: model.id, api_key: 'body', localized: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'code' });
    const record = await client.items.create({ item_type: itemTypeRef(model.id), code: 'A' });
    assert.deepEqual(record.body, { en: null, it: null });
  });

  test('localized fields that disagree on their locales: INVALID_LOCALES, nothing saved', async () => {
    const model = await localizedModel();
    const error = apiError(
      await client.items
        .create({
          item_type: itemTypeRef(model.id),
          title: { en: 'Hello', it: 'Ciao' },
          body: { en: 'Text' },
        })
        .catch((e) => e),
    );
    const found = error.findError('INVALID_FIELD', { field: 'body', code: 'INVALID_LOCALES' });
    assert.ok(found, JSON.stringify(error.errors));
    assert.deepEqual(found.attributes.details.required_locales, ['en', 'it']);
    assert.equal((await client.items.list({ filter: { type: model.id } })).length, 0);
  });

  test('a key that is not a site locale: INVALID_LOCALES', async () => {
    const model = await localizedModel();
    await rejectsWithApiError(
      client.items.create({ item_type: itemTypeRef(model.id), title: { en: 'Hi', fr: 'Salut' } }),
      'INVALID_FIELD',
      { field: 'title', code: 'INVALID_LOCALES' },
    );
  });
});

describe('all_locales_required', () => {
  test('refuses a record missing a site locale, in any localized field', async () => {
    const model = await localizedModel({ all_locales_required: true });
    const missing = apiError(
      await client.items
        .create({ item_type: itemTypeRef(model.id), title: { en: 'Hello' }, body: { en: 'x' } })
        .catch((e) => e),
    );
    const found = missing.findError('INVALID_FIELD', { field: 'title', code: 'INVALID_LOCALES' });
    assert.ok(found, JSON.stringify(missing.errors));
    assert.deepEqual(found.attributes.details.required_locales, ['en', 'it']);
    assert.ok(missing.findError('INVALID_FIELD', { field: 'body', code: 'INVALID_LOCALES' }));
    // Every locale present: accepted, the omitted fields' defaults in every locale too.
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'Hello', it: 'Ciao' },
    });
    assert.deepEqual(localesOf(record.body), ['en', 'it']);
    // An update cannot take a locale away.
    await rejectsWithApiError(
      client.items.update(record.id, {
        title: { en: 'Hello' },
        body: { en: null },
        tagline: { en: null },
      }),
      'INVALID_FIELD',
      { field: 'title', code: 'INVALID_LOCALES' },
    );
  });
});

describe('an update adds or removes a locale only with every localized field', () => {
  test('a locale added to one field only: INVALID_LOCALES naming the record’s locales', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
    });
    const error = apiError(
      await client.items.update(record.id, { title: { it: 'Ciao', en: 'Hello' } }).catch((e) => e),
    );
    const found = error.findError('INVALID_FIELD', { field: 'title', code: 'INVALID_LOCALES' });
    assert.ok(found, JSON.stringify(error.errors));
    assert.deepEqual(found.attributes.details.required_locales, ['it']);
    assert.deepEqual((await client.items.find(record.id)).title, { it: 'Ciao' });
  });

  test('every localized field sent with a new locale adds it; without one removes it', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
    });
    const added = await client.items.update(record.id, {
      title: { it: 'Ciao', en: 'Hello' },
      body: { it: null, en: 'Text' },
      tagline: { it: 'Predefinito', en: null },
    });
    assert.deepEqual(added.title, { en: 'Hello', it: 'Ciao' });
    assert.deepEqual(added.body, { en: 'Text', it: null });
    // Updating one locale's value sends the field's whole set of locales.
    const changed = await client.items.update(record.id, {
      title: { it: 'Ciao!', en: 'Hello' },
    });
    assert.deepEqual(changed.title, { en: 'Hello', it: 'Ciao!' });
    const removed = await client.items.update(record.id, {
      title: { en: 'Hello' },
      body: { en: 'Text' },
      tagline: { en: null },
    });
    assert.deepEqual(removed.title, { en: 'Hello' });
    assert.deepEqual(removed.body, { en: 'Text' });
    assert.deepEqual(removed.tagline, { en: null });
  });

  test('a duplicate keeps the record’s locales', async () => {
    const model = await localizedModel();
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
    });
    const copy = await client.items.duplicate(record.id);
    assert.deepEqual(copy.title, { it: 'Ciao' });
  });
});

describe('publishing by locale works on the record’s locales', () => {
  test('current and published locales are the record’s; a locale it drops is withdrawn by publishing it', async () => {
    const model = await localizedModel({ draft: true });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
    });
    let state = await client.items.currentVsPublishedState(record.id);
    assert.deepEqual(state.current_version_locales, ['it']);
    await client.items.publish(record.id, {
      type: 'selective_publish_operation',
      content_in_locales: ['it'],
      non_localized_content: true,
    });
    const published = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(published.title, { it: 'Ciao' });
    assert.equal(published.meta.status, 'published');

    await client.items.update(record.id, {
      title: { en: 'Hello' },
      body: { en: null },
      tagline: { en: null },
    });
    state = await client.items.currentVsPublishedState(record.id);
    assert.deepEqual(state.current_version_locales, ['en']);
    assert.deepEqual(state.added_locales, ['en']);
    assert.deepEqual(state.removed_locales, ['it']);
    await client.items.publish(record.id, {
      type: 'selective_publish_operation',
      content_in_locales: ['en', 'it'],
      non_localized_content: false,
    });
    const after = await client.items.find(record.id, { version: 'published' });
    assert.deepEqual(after.title, { en: 'Hello' });
  });
});

describe('publishing a locale the record is not in', () => {
  test('publishes nothing in it: a selection of only such locales leaves the record as it is', async () => {
    const model = await localizedModel({ draft: true });
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
    });
    const answered = await client.items.publish(record.id, {
      type: 'selective_publish_operation',
      content_in_locales: ['en'],
      non_localized_content: false,
    });
    assert.equal(answered.meta.status, 'draft');
    assert.equal((await client.items.find(record.id)).meta.published_at, null);
    const state = await client.items.currentVsPublishedState(record.id);
    assert.deepEqual(state.published_version_locales, []);
    // With locales it is in, those are published.
    const published = await client.items.publish(record.id, {
      type: 'selective_publish_operation',
      content_in_locales: ['en', 'it'],
      non_localized_content: true,
    });
    assert.equal(published.meta.status, 'published');
  });
});

describe('site locale changes keep each record’s locales', () => {
  test('a new main locale does not enter records; a record left in no locale gets it', async () => {
    const model = await localizedModel();
    const inEnglish = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { en: 'Hello' },
    });
    const inItalian = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
    });
    try {
      await client.site.update({ locales: ['it', 'en'] });
      assert.deepEqual((await client.items.find(inEnglish.id)).title, { en: 'Hello' });
      assert.deepEqual((await client.items.find(inItalian.id)).title, { it: 'Ciao' });
      await client.site.update({ locales: ['it'] });
      // The English record is in no site locale left: it is put in the main one, empty.
      const moved = await client.items.find(inEnglish.id);
      assert.deepEqual(moved.title, { it: null });
      assert.equal(moved.meta.is_valid, false, 'its required title is empty in it');
    } finally {
      await client.site.update({ locales: ['en', 'it'] });
    }
  });
});
