import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildField, buildModel, buildRecord } from '../support/factories.ts';
import { requestRoundTripsOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

// A filtered list is the CMA's most common read: these pin its statements (the page with
// its total in one scan, then the page's rows; the schema from the cache) and check that
// the total stays exact where the page carries it and where it cannot.
describe('GET /items round trips', () => {
  const server = useTestServer();

  async function modelWithRecords(count: number) {
    const client = server.client();
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'category' });
    for (let i = 0; i < count; i++)
      await buildRecord(client, {
        itemTypeId: model.id,
        attributes: { category: i % 2 === 0 ? 'even' : 'odd' },
      });
    return model;
  }

  test('a filtered page is the page with its total, then its rows; schema reads come from the cache', async () => {
    const client = server.client();
    const model = await modelWithRecords(5);
    const list = (category: string) =>
      client.items.rawList({
        filter: { type: model.id, fields: { category: { eq: category } } },
        page: { limit: 2 },
      });
    // Fills the schema cache at this schema version; other records, so this page is not
    // kept, nor are its rows (kept by their stamps once read: cache-coherence.test.ts).
    await list('odd');
    let page: Awaited<ReturnType<typeof list>> | undefined;
    const sent = (
      await requestRoundTripsOf(async () => {
        page = await list('even');
      })
    ).filter((text) => !text.includes('access_tokens')); // PostgreSQL reads the token
    assert.equal(sent.length, 2, sent.join('\n'));
    assert.match(sent[0] ?? '', /count\(\*\) over \(\)/);
    assert.ok(
      !sent.some((text) => /"(item_types|fields|site_settings)"/.test(text)),
      sent.join('\n'),
    );
    assert.equal(page?.data.length, 2);
    assert.equal(page?.meta.total_count, 3);
  });

  test('the total is exact on a short page, past the end, and after a committed write', async () => {
    const client = server.client();
    const model = await modelWithRecords(5);
    const filter = { type: model.id, fields: { category: { eq: 'odd' } } };
    const short = await client.items.rawList({ filter, page: { limit: 10 } });
    assert.deepEqual([short.data.length, short.meta.total_count], [2, 2]);
    const past = await client.items.rawList({ filter, page: { limit: 10, offset: 4 } });
    assert.deepEqual([past.data.length, past.meta.total_count], [0, 2]);
    const unfiltered = await client.items.rawList({
      filter: { type: model.id },
      page: { limit: 1, offset: 9 },
    });
    assert.deepEqual([unfiltered.data.length, unfiltered.meta.total_count], [0, 5]);
    await buildRecord(client, { itemTypeId: model.id, attributes: { category: 'odd' } });
    const after = await client.items.rawList({ filter, page: { limit: 1 } });
    assert.deepEqual([after.data.length, after.meta.total_count], [1, 3]);
  });
});
