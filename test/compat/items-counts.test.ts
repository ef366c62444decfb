import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

/** `meta.total_count` of a list (one record per page: the count is of all of them). */
async function totalCount(
  on: Client,
  filter: { type?: string; ids?: string } = {},
  version?: 'published',
): Promise<number> {
  const page = await on.items.rawList({ filter, page: { limit: 1 }, version });
  return page.meta.total_count;
}

// Lists by model take their total from counts kept beside the records (migration 0006):
// every way records come and go must keep them equal to the records there are.
test('meta.total_count follows creates, destroys, bulk destroys, forks and model destroys', async () => {
  const articles = await buildModel(client);
  await buildField(client, { itemTypeId: articles.id, api_key: 'title' });
  const notes = await buildModel(client);
  const create = (on: Client, modelId: string) =>
    on.items.create({ item_type: itemTypeRef(modelId) });
  const [first] = [
    await create(client, articles.id),
    await create(client, articles.id),
    await create(client, articles.id),
  ];
  const [note] = [await create(client, notes.id), await create(client, notes.id)];
  assert.equal(await totalCount(client, { type: articles.id }), 3);
  assert.equal(await totalCount(client, { type: `${articles.api_key},${notes.id}` }), 5);
  assert.equal(await totalCount(client), 5);

  await client.items.destroy(first?.id ?? '');
  await client.items.rawBulkDestroy({
    data: {
      type: 'item_bulk_destroy_operation',
      relationships: { items: { data: [{ type: 'item', id: note?.id ?? '' }] } },
    },
  });
  assert.equal(await totalCount(client, { type: articles.id }), 2);
  assert.equal(await totalCount(client, { type: notes.id }), 1);
  // Counted rather than kept: published records and `filter[ids]` agree with the counts.
  assert.equal(await totalCount(client, { type: articles.id }, 'published'), 2);

  await client.environments.fork('main', { id: 'counts-sandbox' });
  const sandbox = server.client({ environment: 'counts-sandbox' });
  assert.equal(await totalCount(sandbox, { type: articles.id }), 2);
  assert.equal(await totalCount(sandbox), 3);
  await create(sandbox, articles.id);
  assert.equal(await totalCount(sandbox, { type: articles.id }), 3);
  assert.equal(await totalCount(client, { type: articles.id }), 2);

  await client.itemTypes.destroy(notes.id);
  assert.equal(await totalCount(client), 2);
  assert.equal(await totalCount(sandbox), 4);
  // A model created again starts from no records.
  const again = await buildModel(client);
  assert.equal(await totalCount(client, { type: again.id }), 0);
});
