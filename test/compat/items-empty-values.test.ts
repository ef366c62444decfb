import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { up as normaliseEmptyLists } from '../../src/db/environment-migrations/0013_empty_lists.ts';
import {
  environmentRef,
  qualifiedTable,
  scopedTransaction,
} from '../../src/db/environment-scope.ts';
import { LOOPBACK } from '../support/delivery-fixtures.ts';
import {
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  buildWebhook,
  itemTypeRef,
} from '../support/factories.ts';
import { useReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

// What a record holds when it holds nothing, as the official client types each field:
// `LinksFieldValue = string[]`, `GalleryFieldValue = Array<…>`, `RichTextFieldValue =
// string[]` are lists, never null; every other type's value is `… | null`.

const server = useTestServer({ webhookAllow: LOOPBACK });
const client = server.client();
const receiver = useReceiver();

/** A model with an empty-able field of every type, and the list-typed ones localized too. */
async function modelWithEveryEmptyField() {
  const block = await buildBlockModel(client);
  const model = await buildModel(client, { all_locales_required: false });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'tags',
    field_type: 'links',
    validators: { items_item_type: { item_types: [model.id] } },
  });
  await buildField(client, { itemTypeId: model.id, api_key: 'photos', field_type: 'gallery' });
  await buildModularContentField(client, {
    itemTypeId: model.id,
    api_key: 'sections',
    blockIds: [block.id],
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'related',
    field_type: 'links',
    localized: true,
    validators: { items_item_type: { item_types: [model.id] } },
  });
  const nullable = {
    string: 'string',
    text: 'text',
    integer: 'integer',
    float: 'float',
    boolean: 'boolean',
    date: 'date',
    date_time: 'date_time',
    color: 'color',
    json: 'json',
    lat_lon: 'lat_lon',
    seo: 'seo',
    slug: 'slug',
    video: 'video',
    file: 'file',
  };
  for (const [apiKey, fieldType] of Object.entries(nullable))
    await buildField(client, {
      itemTypeId: model.id,
      api_key: `f_${apiKey}`,
      field_type: fieldType,
    });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'f_structured_text',
    field_type: 'structured_text',
    validators: {
      structured_text_blocks: { item_types: [] },
      structured_text_links: { item_types: [] },
    },
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'f_link',
    field_type: 'link',
    validators: { item_item_type: { item_types: [model.id] } },
  });
  await buildField(client, {
    itemTypeId: model.id,
    api_key: 'f_single_block',
    field_type: 'single_block',
    validators: { single_block_blocks: { item_types: [block.id] } },
  });
  return {
    model,
    nullableKeys: [...Object.keys(nullable), 'structured_text', 'link', 'single_block'],
  };
}

const LISTS = { tags: [], photos: [], sections: [], related: { en: [] } };

function assertEmpty(record: Record<string, unknown>, nullableKeys: string[], where: string) {
  for (const [key, empty] of Object.entries(LISTS))
    assert.deepEqual(record[key], empty, `${where}: ${key}`);
  for (const key of nullableKeys) assert.equal(record[`f_${key}`], null, `${where}: f_${key}`);
}

describe('empty values read as the client types them', () => {
  test('omitted, or sent as null: links, gallery and modular content are [], others null', async () => {
    const { model, nullableKeys } = await modelWithEveryEmptyField();
    const omitted = await client.items.create({ item_type: itemTypeRef(model.id) });
    assertEmpty(omitted, nullableKeys, 'create answer');
    const sentNull = await client.items.create({
      item_type: itemTypeRef(model.id),
      tags: null,
      photos: null,
      sections: null,
      related: { en: null },
    } as never);
    assertEmpty(sentNull, nullableKeys, 'sent as null');
    // `record.tags.map(…)` works, as it does against DatoCMS.
    assert.deepEqual(
      (sentNull.tags as string[]).map((id) => id),
      [],
    );
    assertEmpty(await client.items.find(omitted.id), nullableKeys, 'find');
    assertEmpty(await client.items.find(omitted.id, { nested: true }), nullableKeys, 'nested');
    const [listed] = await client.items.list({ filter: { ids: omitted.id }, nested: true });
    assertEmpty(listed as never, nullableKeys, 'list');
    const [version] = await client.itemVersions.list(omitted.id);
    assertEmpty(version as never, nullableKeys, 'version');
    const updated = await client.items.update(omitted.id, { tags: null } as never);
    assertEmpty(updated, nullableKeys, 'update');
  });

  test('webhook payloads carry [] too', async () => {
    const { model, nullableKeys } = await modelWithEveryEmptyField();
    await buildWebhook(client, {
      url: `${receiver.url}/empty-values`,
      events: [{ entity_type: 'item', event_types: ['create'], filters: [] }],
      auto_retry: false,
    });
    const record = await client.items.create({ item_type: itemTypeRef(model.id) });
    const deadline = Date.now() + 60_000;
    let request = receiver.requests.find((r) => r.path === '/empty-values');
    while (!request) {
      assert.ok(Date.now() < deadline, 'the webhook was not delivered');
      await new Promise((resolve) => setTimeout(resolve, 10));
      request = receiver.requests.find((r) => r.path === '/empty-values');
    }
    const payload = JSON.parse(request.body);
    assert.equal(payload.entity.id, record.id);
    assertEmpty(payload.entity.attributes, nullableKeys, 'webhook entity');
  });

  test('a new field and a new locale give existing records [] and { locale: [] }', async () => {
    const model = await buildModel(client, { all_locales_required: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'x' });
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'tags',
      field_type: 'links',
      validators: { items_item_type: { item_types: [model.id] } },
    });
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'related',
      field_type: 'links',
      localized: true,
      validators: { items_item_type: { item_types: [model.id] } },
    });
    try {
      await client.site.update({ locales: ['en', 'it'] });
      const found = await client.items.find(record.id);
      assert.deepEqual(found.tags, []);
      assert.deepEqual(found.related, { en: [], it: [] });
    } finally {
      await client.site.update({ locales: ['en'] });
    }
  });

  test('values stored null before read [], and migration 0013 stores them as []', async () => {
    const { model, nullableKeys } = await modelWithEveryEmptyField();
    const record = await client.items.create({ item_type: itemTypeRef(model.id) });
    const environment = await server.db
      .selectFrom('environments')
      .select(['id', 'number', 'schema_name', 'is_primary'])
      .where('is_primary', '=', true)
      .executeTakeFirstOrThrow();
    // As Fieldhouse stored empty lists before: JSON null, in the row and its version.
    const fields = await client.fields.list(model.id);
    const idOf = (apiKey: string) => fields.find((field) => field.api_key === apiKey)?.id ?? '';
    const asBefore = {
      [idOf('tags')]: null,
      [idOf('photos')]: null,
      [idOf('sections')]: null,
      [idOf('related')]: { en: null },
    };
    await server.db.transaction().execute(async (trx) => {
      const tx = scopedTransaction(trx, environmentRef(environment));
      await tx.db
        .updateTable('items')
        .set({ item_values: sql`item_values || ${JSON.stringify(asBefore)}::jsonb` })
        .where('id', '=', record.id)
        .execute();
      await tx.db
        .updateTable('item_versions')
        .set({ item_values: sql`item_values || ${JSON.stringify(asBefore)}::jsonb` })
        .where('item_id', '=', record.id)
        .execute();
    });
    assertEmpty(await client.items.find(record.id), nullableKeys, 'read before the migration');
    const [version] = await client.itemVersions.list(record.id);
    assertEmpty(version as never, nullableKeys, 'version before the migration');

    await server.db.transaction().execute(async (trx) => {
      await normaliseEmptyLists(trx as never, (table) =>
        qualifiedTable(environment.schema_name, table),
      );
      const tx = scopedTransaction(trx, environmentRef(environment));
      const row = await tx.db
        .selectFrom('items')
        .select('item_values')
        .where('id', '=', record.id)
        .executeTakeFirstOrThrow();
      const stored = await tx.db
        .selectFrom('item_versions')
        .select('item_values')
        .where('item_id', '=', record.id)
        .executeTakeFirstOrThrow();
      for (const values of [row.item_values, stored.item_values]) {
        assert.deepEqual(values[idOf('tags')], []);
        assert.deepEqual(values[idOf('photos')], []);
        assert.deepEqual(values[idOf('sections')], []);
        assert.deepEqual(values[idOf('related')], { en: [] });
        assert.equal(values[idOf('f_string')], null);
      }
    });
  });
});
