import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { buildField, buildModel, buildRecord, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

describe('schema changes reach records', () => {
  test('a new field gives existing records its default; a destroyed one drops its values', async () => {
    const record = await buildRecord(client, { attributes: { title: 'kept' } });
    const modelId = record.item_type.id;
    const field = await buildField(client, {
      itemTypeId: modelId,
      api_key: 'subtitle',
      default_value: 'none yet',
    });
    let found = await client.items.find(record.id);
    assert.equal(found.subtitle, 'none yet');
    assert.equal(found.title, 'kept');

    await client.fields.destroy(field.id);
    found = await client.items.find(record.id);
    assert.equal('subtitle' in found, false);
    // A new field with the same api_key starts from its own default, not the old values.
    await buildField(client, { itemTypeId: modelId, api_key: 'subtitle' });
    found = await client.items.find(record.id);
    assert.equal(found.subtitle, null);
  });

  test('localizing a field moves values to the main locale, and back', async () => {
    const record = await buildRecord(client, { attributes: { title: 'Hello' } });
    const [title] = await client.fields.list(record.item_type.id);
    assert.ok(title);
    await client.fields.update(title.id, { localized: true });
    let found = await client.items.find(record.id);
    assert.deepEqual(found.title, { en: 'Hello' });
    // The converted value validates as it is: an update of nothing else succeeds.
    await client.items.update(record.id, {});
    await client.fields.update(title.id, { localized: false });
    found = await client.items.find(record.id);
    assert.equal(found.title, 'Hello');
  });
});

/** One allowed type change: a field of `from` (with these extra settings), its values before and after. */
type Conversion = {
  from: string;
  to: string;
  extra?: Record<string, unknown>;
  /** Per record: the value stored before, the value read after the change. */
  values: [unknown, unknown][];
};

describe('a field_type change converts stored values', () => {
  test('every allowed change, values before and after, current and published', async () => {
    const target = await buildRecord(client);
    const other = await buildRecord(client, { itemTypeId: target.item_type.id });
    const linkTo = { item_types: [target.item_type.id] };
    const conversions: Conversion[] = [
      {
        from: 'string',
        to: 'text',
        values: [
          ['Hello', 'Hello'],
          [null, null],
        ],
      },
      { from: 'text', to: 'string', values: [['Line 1\nLine 2', 'Line 1\nLine 2']] },
      { from: 'string', to: 'slug', values: [['my-post', 'my-post']] },
      { from: 'slug', to: 'string', values: [['my-post', 'my-post']] },
      { from: 'text', to: 'slug', values: [['a-b', 'a-b']] },
      { from: 'slug', to: 'text', values: [['a-b', 'a-b']] },
      {
        from: 'string',
        to: 'json',
        values: [
          ['Hi "you"', '"Hi \\"you\\""'],
          [null, null],
        ],
      },
      { from: 'integer', to: 'float', values: [[3, 3]] },
      {
        from: 'float',
        to: 'integer',
        values: [
          [2.5, 3],
          [-1.4, -1],
          [7, 7],
        ],
      },
      { from: 'date', to: 'date_time', values: [['2024-05-17', '2024-05-17T00:00:00+00:00']] },
      { from: 'date_time', to: 'date', values: [['2024-05-17T10:30:00+00:00', '2024-05-17']] },
      {
        from: 'link',
        to: 'links',
        extra: { validators: { item_item_type: linkTo } },
        values: [
          [target.id, [target.id]],
          [null, []],
        ],
      },
      {
        from: 'links',
        to: 'link',
        extra: { validators: { items_item_type: linkTo } },
        values: [
          [[other.id, target.id], other.id],
          [[], null],
        ],
      },
      // Until uploads exist, file and gallery values are empty.
      { from: 'file', to: 'gallery', values: [[null, []]] },
      { from: 'gallery', to: 'file', values: [[[], null]] },
    ];
    for (const conversion of conversions) {
      const label = `${conversion.from} → ${conversion.to}`;
      const model = await buildModel(client);
      const field = await buildField(client, {
        itemTypeId: model.id,
        api_key: 'value',
        field_type: conversion.from as 'string',
        ...conversion.extra,
      });
      const records: { id: string }[] = [];
      for (const [before] of conversion.values)
        records.push(
          await client.items.create({ item_type: itemTypeRef(model.id), value: before }),
        );
      await client.fields.update(field.id, { field_type: conversion.to as 'string' });
      for (const [index, [, after]] of conversion.values.entries()) {
        const record = records[index];
        assert.ok(record);
        assert.deepEqual((await client.items.find(record.id)).value, after, label);
        const published = await client.items.find(record.id, { version: 'published' });
        assert.deepEqual(published.value, after, `${label} (published)`);
        // The converted value is valid for the new type: a save of nothing else succeeds.
        await client.items.update(record.id, {});
        // Versions keep what was saved (an empty value reads as the field's type has it).
        const [firstVersion] = (await client.itemVersions.list(record.id)).slice(-1);
        const saved = conversion.values[index]?.[0];
        const listType = ['links', 'gallery', 'rich_text'].includes(conversion.to);
        assert.deepEqual(
          firstVersion?.value,
          saved === null && listType ? [] : saved,
          `${label} (version)`,
        );
      }
    }
  });

  test('a localized value converts per locale; a refused change converts nothing', async () => {
    await client.site.update({ locales: ['en', 'it'] });
    try {
      const model = await buildModel(client, { all_locales_required: true });
      const field = await buildField(client, {
        itemTypeId: model.id,
        api_key: 'amount',
        field_type: 'float',
        localized: true,
      });
      const record = await client.items.create({
        item_type: itemTypeRef(model.id),
        amount: { en: 1.6, it: null },
      });
      await rejectsWithApiError(
        client.fields.update(field.id, { field_type: 'boolean' }),
        'INVALID_FIELD',
        {
          field: 'field_type',
        },
      );
      assert.deepEqual((await client.items.find(record.id)).amount, { en: 1.6, it: null });
      await client.fields.update(field.id, { field_type: 'integer' });
      assert.deepEqual((await client.items.find(record.id)).amount, { en: 2, it: null });
      // A type change and localization toggle together: converted, then the main locale's value.
      await client.fields.update(field.id, { field_type: 'float', localized: false });
      assert.equal((await client.items.find(record.id)).amount, 2);
    } finally {
      await client.site.update({ locales: ['en'] });
    }
  });
});

describe('site locale changes reach records', () => {
  test('an added locale gets a key where records are in every locale; a removed one is dropped', async () => {
    await client.site.update({ locales: ['en', 'it'] });
    try {
      const every = await buildModel(client, { all_locales_required: true });
      const some = await buildModel(client, { all_locales_required: false });
      for (const model of [every, some])
        await buildField(client, { itemTypeId: model.id, api_key: 'title', localized: true });
      const inEvery = await client.items.create({
        item_type: itemTypeRef(every.id),
        title: { en: 'Hello', it: 'Ciao' },
      });
      const inSome = await client.items.create({
        item_type: itemTypeRef(some.id),
        title: { en: 'Hello' },
      });
      assert.deepEqual(inSome.title, { en: 'Hello' });

      await client.site.update({ locales: ['en', 'it', 'fr'] });
      assert.deepEqual((await client.items.find(inEvery.id)).title, {
        en: 'Hello',
        it: 'Ciao',
        fr: null,
      });
      assert.deepEqual((await client.items.find(inEvery.id, { version: 'published' })).title, {
        en: 'Hello',
        it: 'Ciao',
        fr: null,
      });
      assert.deepEqual((await client.items.find(inSome.id)).title, { en: 'Hello' });

      await client.site.update({ locales: ['en', 'fr'] });
      assert.deepEqual((await client.items.find(inEvery.id)).title, { en: 'Hello', fr: null });
      // The reshaped records validate as they are.
      await client.items.update(inEvery.id, {});
      await client.items.update(inSome.id, {});

      // A new main locale: every record is in it.
      await client.site.update({ locales: ['fr'] });
      assert.deepEqual((await client.items.find(inEvery.id)).title, { fr: null });
      assert.deepEqual((await client.items.find(inSome.id)).title, { fr: null });
    } finally {
      await client.site.update({ locales: ['en'] });
    }
  });
});

describe('schema changes that records break make them invalid, not the change', () => {
  test('a validator added: records it breaks become invalid until fixed; they cannot be published', async () => {
    const model = await buildModel(client, { draft_mode_active: true });
    const title = await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const empty = await client.items.create({ item_type: itemTypeRef(model.id), title: null });
    const filled = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Hi' });
    await client.items.publish(empty.id);
    assert.equal(empty.meta.is_valid, true);

    await client.fields.update(title.id, { validators: { required: {} } });
    let found = await client.items.find(empty.id);
    assert.equal(found.meta.is_valid, false);
    assert.equal(found.meta.is_current_version_valid, false);
    assert.equal(found.meta.is_published_version_valid, false);
    assert.equal((await client.items.find(filled.id)).meta.is_valid, true);
    // A never-published record has no published version to judge.
    assert.equal((await client.items.find(filled.id)).meta.is_published_version_valid, null);
    const ordered = await client.items.list({
      filter: { type: model.id },
      order_by: '_is_valid_ASC',
    });
    assert.deepEqual(
      ordered.map((record) => record.id),
      [empty.id, filled.id],
    );
    await rejectsWithApiError(client.items.publish(empty.id), 'INVALID_FIELD', {
      field: 'title',
      code: 'VALIDATION_REQUIRED',
    });
    await rejectsWithApiError(client.items.update(empty.id, {}), 'INVALID_FIELD', {
      field: 'title',
    });

    await client.items.update(empty.id, { title: 'Fixed' });
    found = await client.items.find(empty.id);
    assert.equal(found.meta.is_valid, true);
    assert.equal(
      found.meta.is_published_version_valid,
      false,
      'the published version is still empty',
    );
    found = await client.items.publish(empty.id);
    assert.equal(found.meta.is_published_version_valid, true);

    // Dropping the validator makes an invalid record valid again.
    const other = await client.items.create({ item_type: itemTypeRef(model.id), title: 'x' });
    await client.fields.update(title.id, { validators: { length: { min: 3 } } });
    assert.equal((await client.items.find(other.id)).meta.is_valid, false);
    await client.fields.update(title.id, { validators: {} });
    assert.equal((await client.items.find(other.id)).meta.is_valid, true);
  });

  test('a new required field makes every record invalid; destroying it makes them valid', async () => {
    const record = await buildRecord(client);
    const field = await buildField(client, {
      itemTypeId: record.item_type.id,
      api_key: 'summary',
      validators: { required: {} },
    });
    assert.equal((await client.items.find(record.id)).meta.is_valid, false);
    await client.fields.destroy(field.id);
    assert.equal((await client.items.find(record.id)).meta.is_valid, true);
  });

  test('a locale added to a model that requires every locale leaves required values missing', async () => {
    await client.site.update({ locales: ['en', 'it'] });
    try {
      const model = await buildModel(client, { all_locales_required: true });
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
      await client.site.update({ locales: ['en', 'it', 'fr'] });
      let found = await client.items.find(record.id);
      assert.deepEqual(found.title, { en: 'Hello', it: 'Ciao', fr: null });
      assert.equal(found.meta.is_valid, false);
      await client.items.update(record.id, { title: { en: 'Hello', it: 'Ciao', fr: 'Salut' } });
      assert.equal((await client.items.find(record.id)).meta.is_valid, true);

      // The model stops, then starts again, requiring every locale.
      const partial = await client.itemTypes.update(model.id, { all_locales_required: false });
      assert.equal(partial.all_locales_required, false);
      const onlyEn = await client.items.create({
        item_type: itemTypeRef(model.id),
        title: { en: 'Only English' },
      });
      assert.equal(onlyEn.meta.is_valid, true);
      await client.itemTypes.update(model.id, { all_locales_required: true });
      found = await client.items.find(onlyEn.id);
      assert.equal(found.meta.is_valid, false);
      assert.equal((await client.items.find(record.id)).meta.is_valid, true);
    } finally {
      await client.site.update({ locales: ['en'] });
    }
  });
});
