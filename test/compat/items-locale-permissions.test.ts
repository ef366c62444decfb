import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { apiError, rejectsWithMessage } from '../support/api-errors.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  itemTypeRef,
} from '../support/factories.ts';
import { recordEventCount } from '../support/fixtures.ts';
import { clientWithItemPermissions, itemPermission } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

// Role entries limited to some content (`localization_scope`, `locale`): a create may give,
// an update change, and publishing or unpublishing change in the published version, only
// the values they take in.

const server = useTestServer();
const admin = server.client();

before(async () => {
  await admin.site.update({ locales: ['en', 'it'] });
});

/** A model with a localized `title` and a non-localized `code`. */
async function translatableModel(overrides: { draft_mode_active?: boolean } = {}) {
  const model = await buildModel(admin, overrides);
  await buildField(admin, { itemTypeId: model.id, api_key: 'title', localized: true });
  await buildField(admin, { itemTypeId: model.id, api_key: 'code' });
  return model;
}

/** A record with a localized `title` and a non-localized `code`. */
async function translatable(overrides: { draft_mode_active?: boolean } = {}) {
  const model = await translatableModel(overrides);
  return admin.items.create({
    item_type: itemTypeRef(model.id),
    title: { en: 'Hello', it: 'Ciao' },
    code: 'A',
  });
}

/** The values a refused write names (403 INSUFFICIENT_PERMISSIONS), as `field` or `field (locale)`. */
async function refusedValues(call: Promise<unknown>): Promise<string[]> {
  const error = await call.then(
    () => assert.fail('the write was accepted'),
    (error: unknown) => apiError(error),
  );
  const found = error.findError('INSUFFICIENT_PERMISSIONS');
  assert.ok(found, JSON.stringify(error.errors));
  const refused = found.attributes.details.refused as { field: string; locale: string | null }[];
  return refused.map(({ field, locale }) => (locale === null ? field : `${field} (${locale})`));
}

describe('permissions limited to some content', () => {
  test('localized + locale: only that locale of localized fields may change', async () => {
    const record = await translatable();
    const translator = await clientWithItemPermissions(server, [
      itemPermission('read'),
      itemPermission('update', { localization_scope: 'localized', locale: 'it' }),
    ]);
    const updated = await translator.items.update(record.id, {
      title: { en: 'Hello', it: 'Ciao!' },
    });
    assert.deepEqual(updated.title, { en: 'Hello', it: 'Ciao!' });

    const events = await recordEventCount(server.db);
    assert.deepEqual(
      await refusedValues(
        translator.items.update(record.id, { title: { en: 'Hi', it: 'Salve' }, code: 'B' }),
      ),
      ['title (en)', 'code'],
    );
    // Taking a locale away changes it too.
    assert.deepEqual(
      await refusedValues(translator.items.update(record.id, { title: { it: 'Ciao!' } })),
      ['title (en)'],
    );
    assert.equal(await recordEventCount(server.db), events, 'a refused update emits nothing');
    const found = await admin.items.find(record.id);
    assert.deepEqual([found.title, found.code], [{ en: 'Hello', it: 'Ciao!' }, 'A']);
    // Sending values as they are changes nothing the role lacks.
    await translator.items.update(record.id, { title: { en: 'Hello', it: 'Ciao!' }, code: 'A' });
  });

  test('not_localized: only the non-localized values may change', async () => {
    const record = await translatable();
    const editor = await clientWithItemPermissions(server, [
      itemPermission('read'),
      itemPermission('update', { localization_scope: 'not_localized' }),
    ]);
    assert.equal((await editor.items.update(record.id, { code: 'B' })).code, 'B');
    assert.deepEqual(
      await refusedValues(editor.items.update(record.id, { title: { en: 'Hello', it: 'Oi' } })),
      ['title (it)'],
    );
  });

  test('a negative entry on a locale takes away that locale only', async () => {
    const record = await translatable();
    const limited = await clientWithItemPermissions(
      server,
      [itemPermission('all')],
      [itemPermission('update', { localization_scope: 'localized', locale: 'en' })],
    );
    await limited.items.update(record.id, { title: { en: 'Hello', it: 'Ciao!' }, code: 'B' });
    assert.deepEqual(
      await refusedValues(limited.items.update(record.id, { title: { en: 'Hi', it: 'Ciao!' } })),
      ['title (en)'],
    );
    // Other actions are not limited by it.
    await limited.items.publish(record.id);
  });

  test('restoring a version is judged on the values it changes', async () => {
    const record = await translatable();
    await admin.items.update(record.id, { title: { en: 'Hi', it: 'Ciao' } });
    const translator = await clientWithItemPermissions(server, [
      itemPermission('read'),
      itemPermission('update', { localization_scope: 'localized', locale: 'it' }),
    ]);
    assert.deepEqual(
      await refusedValues(translator.itemVersions.restore(record.meta.current_version)),
      ['title (en)'],
    );
    assert.deepEqual((await admin.items.find(record.id)).title, { en: 'Hi', it: 'Ciao' });
  });

  test('a block is judged by the field holding it; one re-sent as it is changes nothing', async () => {
    const block = await buildBlockModel(admin);
    const model = await buildModel(admin);
    const validators = { rich_text_blocks: { item_types: [block.id] } };
    for (const [api_key, localized] of [
      ['sections', false],
      ['notes', true],
    ] as const)
      await buildField(admin, {
        itemTypeId: model.id,
        api_key,
        field_type: 'rich_text',
        localized,
        validators,
      });
    const record = await admin.items.create({
      item_type: itemTypeRef(model.id),
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'Shared' } })],
      notes: {
        en: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'Note' } })],
        it: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'Nota' } })],
      },
    });
    const [shared] = record.sections as string[];
    const { en, it } = record.notes as Record<string, string[]>;
    const translator = await clientWithItemPermissions(server, [
      itemPermission('read'),
      itemPermission('update', { localization_scope: 'localized', locale: 'it' }),
    ]);
    // Every block sent whole, only the Italian one edited in place.
    await translator.items.update(record.id, {
      sections: [blockInRequest({ id: shared, attributes: { title: 'Shared' } })],
      notes: {
        en: [blockInRequest({ id: en?.[0], attributes: { title: 'Note' } })],
        it: [blockInRequest({ id: it?.[0], attributes: { title: 'Nota!' } })],
      },
    });
    assert.deepEqual(
      await refusedValues(
        translator.items.update(record.id, {
          sections: [blockInRequest({ id: shared, attributes: { title: 'Changed' } })],
        }),
      ),
      ['sections'],
    );
  });
});

describe('creating with permissions limited to some content', () => {
  const translatorOf = () =>
    clientWithItemPermissions(server, [
      itemPermission('read'),
      itemPermission('create', { localization_scope: 'localized', locale: 'it' }),
    ]);

  test('a new record may be given only the values the entry takes in', async () => {
    const model = await translatableModel();
    const translator = await translatorOf();
    const created = await translator.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
    });
    // The record is in the locale it was given only.
    assert.deepEqual([created.title, created.code], [{ it: 'Ciao' }, null]);

    const events = await recordEventCount(server.db);
    const records = (await admin.items.list({ filter: { type: model.id } })).length;
    assert.deepEqual(
      await refusedValues(
        translator.items.create({
          item_type: itemTypeRef(model.id),
          title: { en: 'Hello', it: 'Ciao' },
          code: 'A',
        }),
      ),
      ['title (en)', 'code'],
    );
    // Validating such a create is refused alike.
    assert.deepEqual(
      await refusedValues(
        translator.items.validateNew({ item_type: itemTypeRef(model.id), code: 'A' }),
      ),
      ['code'],
    );
    assert.equal(await recordEventCount(server.db), events, 'a refused create emits nothing');
    assert.equal((await admin.items.list({ filter: { type: model.id } })).length, records);
  });

  test('a default is the model’s doing: left out or sent as it is, it is not judged', async () => {
    const model = await buildModel(admin);
    await buildField(admin, { itemTypeId: model.id, api_key: 'title', localized: true });
    await buildField(admin, { itemTypeId: model.id, api_key: 'code', default_value: 'X' });
    const translator = await translatorOf();
    const left = await translator.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
    });
    assert.equal(left.code, 'X');
    await translator.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
      code: 'X',
    });
    assert.deepEqual(
      await refusedValues(translator.items.create({ item_type: itemTypeRef(model.id), code: 'Y' })),
      ['code'],
    );
  });

  test('a negative entry on a locale takes away giving a value in it', async () => {
    const model = await translatableModel();
    const limited = await clientWithItemPermissions(
      server,
      [itemPermission('all')],
      [itemPermission('create', { localization_scope: 'localized', locale: 'en' })],
    );
    await limited.items.create({
      item_type: itemTypeRef(model.id),
      title: { it: 'Ciao' },
      code: 'A',
    });
    assert.deepEqual(
      await refusedValues(
        limited.items.create({ item_type: itemTypeRef(model.id), title: { en: 'Hi', it: 'Ciao' } }),
      ),
      ['title (en)'],
    );
  });
});

describe('publishing with permissions limited to some content', () => {
  const translatorOf = () =>
    clientWithItemPermissions(server, [
      itemPermission('read'),
      itemPermission('publish', { localization_scope: 'localized', locale: 'it' }),
    ]);

  /** A draft-mode record, published, then changed in both locales and in `code`. */
  async function changedSincePublished() {
    const record = await translatable({ draft_mode_active: true });
    await admin.items.publish(record.id);
    await admin.items.update(record.id, { title: { en: 'Hello!', it: 'Ciao!' }, code: 'B' });
    return record;
  }

  test('a selection within the entry publishes; a wider publish is refused, naming the values', async () => {
    const record = await changedSincePublished();
    const translator = await translatorOf();
    const events = await recordEventCount(server.db);
    assert.deepEqual(await refusedValues(translator.items.publish(record.id)), [
      'title (en)',
      'code',
    ]);
    assert.deepEqual(
      await refusedValues(
        translator.items.publish(record.id, {
          content_in_locales: ['it'],
          non_localized_content: true,
        }),
      ),
      ['code'],
    );
    assert.equal(await recordEventCount(server.db), events, 'a refused publish emits nothing');

    const partly = await translator.items.publish(record.id, {
      content_in_locales: ['it'],
      non_localized_content: false,
    });
    assert.equal(partly.meta.status, 'updated');
    const live = await admin.items.find(record.id, { version: 'published' });
    assert.deepEqual([live.title, live.code], [{ en: 'Hello', it: 'Ciao!' }, 'A']);
  });

  test('a first publish gives the published version every value: those outside the entry are refused', async () => {
    const record = await translatable({ draft_mode_active: true });
    const translator = await translatorOf();
    assert.deepEqual(await refusedValues(translator.items.publish(record.id)), [
      'title (en)',
      'code',
    ]);
    assert.equal((await admin.items.find(record.id)).meta.status, 'draft');
  });

  test('the parents a recursive publish takes along are judged on their own values', async () => {
    const model = await translatableModel({ draft_mode_active: true });
    await admin.itemTypes.update(model.id, { tree: true });
    const values = { title: { en: 'Hello', it: 'Ciao' }, code: 'A' };
    const parent = await admin.items.create({ item_type: itemTypeRef(model.id), ...values });
    const child = await admin.items.create({
      item_type: itemTypeRef(model.id),
      ...values,
      parent_id: parent.id,
    });
    const translator = await clientWithItemPermissions(server, [
      itemPermission('read'),
      itemPermission('publish', { localization_scope: 'localized', locale: 'it' }),
    ]);
    const onlyItalian = { content_in_locales: ['it'], non_localized_content: false };
    // The parent would be published whole: its English title and its code are refused.
    await rejectsWithMessage(
      translator.items.publish(child.id, onlyItalian, { recursive: true }),
      'INSUFFICIENT_PERMISSIONS',
      new RegExp(`record ${parent.id}: title \\(en\\), code$`),
    );
    assert.equal((await admin.items.find(parent.id)).meta.status, 'draft');
    assert.equal((await admin.items.find(child.id)).meta.status, 'draft');
  });

  test('unpublishing is judged on the values it withdraws', async () => {
    const record = await translatable({ draft_mode_active: true });
    await admin.items.publish(record.id);
    const translator = await translatorOf();
    assert.deepEqual(await refusedValues(translator.items.unpublish(record.id)), [
      'title (en)',
      'code',
    ]);
    const partly = await translator.items.unpublish(record.id, { content_in_locales: ['it'] });
    assert.equal(partly.meta.status, 'updated');
    const live = await admin.items.find(record.id, { version: 'published' });
    assert.deepEqual(live.title, { en: 'Hello' });
  });

  test('bulk publishing judges each record on its own values', async () => {
    const onlyItalian = await translatable({ draft_mode_active: true });
    await admin.items.publish(onlyItalian.id);
    await admin.items.update(onlyItalian.id, { title: { en: 'Hello', it: 'Ciao!' } });
    const wider = await changedSincePublished();
    const translator = await translatorOf();
    const result = await translator.items.rawBulkPublish({
      data: {
        type: 'item_bulk_publish_operation',
        relationships: {
          items: {
            data: [
              { type: 'item', id: onlyItalian.id },
              { type: 'item', id: wider.id },
            ],
          },
        },
      },
    });
    assert.deepEqual(result.meta, { successful: 1, failed: 1 });
    assert.equal((await admin.items.find(onlyItalian.id)).meta.status, 'published');
    assert.equal((await admin.items.find(wider.id)).meta.status, 'updated');
    assert.deepEqual((await admin.items.find(wider.id, { version: 'published' })).title, {
      en: 'Hello',
      it: 'Ciao',
    });
  });

  test('a schedule needs an entry over all content: what it publishes is not known yet', async () => {
    const record = await changedSincePublished();
    const translator = await translatorOf();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await assert.rejects(
      translator.scheduledPublication.create(record.id, { publication_scheduled_at: at }),
      (error) => Boolean(apiError(error).findError('INSUFFICIENT_PERMISSIONS')),
    );
    const publisher = await clientWithItemPermissions(server, [
      itemPermission('read'),
      itemPermission('publish'),
    ]);
    await publisher.scheduledPublication.create(record.id, { publication_scheduled_at: at });
  });
});
