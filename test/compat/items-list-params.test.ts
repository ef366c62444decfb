import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorCodesOf } from '../support/api-errors.ts';
import { buildRecord } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

/** 2^63: one past PostgreSQL's bigint, which OFFSET takes. */
const PAST_BIGINT = '9223372036854775808';

/** Asserts a 422 INVALID_PARAMS whose details name the parameter. */
function assertRefusedNaming(
  response: { status: number; body: unknown },
  parameter: string,
  query: string,
): void {
  assert.equal(response.status, 422, `${query} → ${JSON.stringify(response.body)}`);
  assert.deepEqual(errorCodesOf(response.body), ['INVALID_PARAMS'], query);
  const details = (
    response.body as { data: { attributes: { details: Record<string, unknown> } }[] }
  ).data[0]?.attributes.details;
  assert.equal(details?.field, parameter, query);
  assert.match(String(details?.message), new RegExp(parameter.replace(/[[\]]/g, '\\$&')), query);
}

describe('list parameters the database cannot take are refused, naming them', () => {
  test('an empty or comma-only filter[type] is 422, not a query on "in ()"', async () => {
    for (const type of ['', ',', ',,', ' , '])
      assertRefusedNaming(
        await server.request('GET', `/items?filter[type]=${encodeURIComponent(type)}`),
        'filter[type]',
        `filter[type]=${JSON.stringify(type)}`,
      );
  });

  test('page[offset] and page[limit] beyond what a bigint holds are 422', async () => {
    const record = await buildRecord(server.client());
    for (const [path, parameter] of [
      [`/items?page[offset]=${PAST_BIGINT}`, 'page[offset]'],
      [`/items?page[offset]=99999999999999999999999`, 'page[offset]'],
      [`/items?page[limit]=${PAST_BIGINT}`, 'page[limit]'],
      [`/items/${record.id}/versions?page[offset]=${PAST_BIGINT}`, 'page[offset]'],
      [`/items/${record.id}/versions?page[limit]=${PAST_BIGINT}`, 'page[limit]'],
      [`/webhook_calls?page[offset]=${PAST_BIGINT}`, 'page[offset]'],
      [`/webhook_calls?page[limit]=${PAST_BIGINT}`, 'page[limit]'],
    ] as const)
      assertRefusedNaming(await server.request('GET', path), parameter, path);
  });

  test('the largest offset a page can start at still answers an empty page', async () => {
    const record = await buildRecord(server.client());
    const offset = String(Number.MAX_SAFE_INTEGER);
    const list = await server.request('GET', `/items?page[offset]=${offset}`);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual((list.body as { data: unknown[] }).data, []);
    const versions = await server.request(
      'GET',
      `/items/${record.id}/versions?page[offset]=${offset}`,
    );
    assert.equal(versions.status, 200, JSON.stringify(versions.body));
    assert.deepEqual((versions.body as { data: unknown[] }).data, []);
  });
});

describe('a listed record', () => {
  test('is presented as reading it alone presents it, timestamps to the millisecond', async () => {
    const client = server.client();
    const draft = await buildRecord(client);
    const published = await client.items.publish(
      (await buildRecord(client, { itemTypeId: draft.item_type.id, attributes: { title: 'p' } }))
        .id,
    );
    for (const record of [draft, published]) {
      const alone = await server.request('GET', `/items/${record.id}`);
      const listed = await server.request(
        'GET',
        `/items?filter[type]=${record.item_type.id}&filter[fields][title][eq]=${encodeURIComponent(String(record.title))}`,
      );
      assert.equal(alone.status, 200);
      assert.deepEqual((listed.body as { data: unknown[] }).data, [
        (alone.body as { data: unknown }).data,
      ]);
    }
    assert.match(String(published.meta.published_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
