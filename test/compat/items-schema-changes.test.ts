import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { buildField, buildRecord } from '../support/factories.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let client: Client;
before(async () => {
  server = await startTestServer();
  client = server.client();
});
after(async () => {
  await server?.close();
});

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
