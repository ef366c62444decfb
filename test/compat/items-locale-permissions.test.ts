import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { apiError } from '../support/api-errors.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  itemTypeRef,
} from '../support/factories.ts';
import { recordEventCount } from '../support/fixtures.ts';
import { itemPermission, tokenWithRole } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

// Role entries limited to some content (`localization_scope`, `locale`): an update may
// change only the values they take in.

const server = useTestServer();
const admin = server.client();

before(async () => {
  await admin.site.update({ locales: ['en', 'it'] });
});

async function clientWith(
  positive: Record<string, unknown>[],
  negative: Record<string, unknown>[] = [],
): Promise<Client> {
  const { token } = await tokenWithRole(server.db, {
    positive_item_type_permissions: positive,
    negative_item_type_permissions: negative,
  });
  return server.client({ apiToken: token });
}

/** A record with a localized `title` and a non-localized `code`. */
async function translatable() {
  const model = await buildModel(admin);
  await buildField(admin, { itemTypeId: model.id, api_key: 'title', localized: true });
  await buildField(admin, { itemTypeId: model.id, api_key: 'code' });
  return admin.items.create({
    item_type: itemTypeRef(model.id),
    title: { en: 'Hello', it: 'Ciao' },
    code: 'A',
  });
}

/** The values a refused update names (403 INSUFFICIENT_PERMISSIONS), as `field` or `field (locale)`. */
async function refusedValues(call: Promise<unknown>): Promise<string[]> {
  const error = await call.then(
    () => assert.fail('the update was accepted'),
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
    const translator = await clientWith([
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
    const editor = await clientWith([
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
    const limited = await clientWith(
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
    const translator = await clientWith([
      itemPermission('read'),
      itemPermission('update', { localization_scope: 'localized', locale: 'it' }),
    ]);
    assert.deepEqual(
      await refusedValues(translator.itemVersions.restore(record.meta.current_version)),
      ['title (en)'],
    );
    assert.deepEqual((await admin.items.find(record.id)).title, { en: 'Hi', it: 'Ciao' });
  });

  test('an entry limited to some content still grants no publish', async () => {
    const record = await translatable();
    const limited = await clientWith([
      itemPermission('read'),
      itemPermission('publish', { localization_scope: 'localized', locale: 'it' }),
    ]);
    await assert.rejects(limited.items.publish(record.id), (error) =>
      Boolean(apiError(error).findError('INSUFFICIENT_PERMISSIONS')),
    );
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
    const translator = await clientWith([
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
