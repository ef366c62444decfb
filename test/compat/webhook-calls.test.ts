import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import type { WebhookCallStatus } from '../../src/db/schema.ts';
import { errorCodesOf, rejectsWithApiError } from '../support/api-errors.ts';
import { buildWebhook } from '../support/factories.ts';
import { tokenWithFlags } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

type CallValues = {
  entityType?: string;
  eventType?: string;
  status?: WebhookCallStatus;
  createdAt?: string;
  lastSentAt?: string | null;
  nextRetryAt?: string | null;
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
};

function dateOrNull(value: string | null): Date | null {
  return value === null ? null : new Date(value);
}

/**
 * A log entry as a worker leaves it, written directly so its timestamps are chosen.
 * `due_at` is null: nothing is left to send, so no worker touches it.
 */
async function insertCall(webhookId: string, values: CallValues = {}): Promise<string> {
  const event = await server.db
    .insertInto('events')
    .values({
      environment: 'main',
      entity_type: values.entityType ?? 'item_type',
      event_type: values.eventType ?? 'create',
      entity_id: 'x',
      entity: JSON.stringify({ type: 'item_type', id: 'x', attributes: {} }),
      previous_entity: JSON.stringify(null),
      related_entities: JSON.stringify([]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const call = await server.db
    .insertInto('webhook_calls')
    .values({
      webhook_id: webhookId,
      event_id: event.id,
      entity_type: values.entityType ?? 'item_type',
      event_type: values.eventType ?? 'create',
      status: values.status ?? 'success',
      created_at: values.createdAt ?? new Date(),
      request_url: 'https://receiver.invalid/hook',
      request_headers: JSON.stringify(values.requestHeaders ?? { Accept: '*/*' }),
      request_payload: '{"webhook_call_id":"1"}',
      response_status: 200,
      response_headers: JSON.stringify(values.responseHeaders ?? { 'content-type': 'text/plain' }),
      response_payload: 'ok',
      last_sent_at: values.lastSentAt === undefined ? new Date() : dateOrNull(values.lastSentAt),
      next_retry_at: dateOrNull(values.nextRetryAt ?? null),
      due_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return call.id;
}

async function idsOf(query: Parameters<Client['webhookCalls']['list']>[0]): Promise<string[]> {
  return (await client.webhookCalls.list(query)).map((call) => call.id);
}

describe('webhook calls through the official client', () => {
  test('a fresh project has no calls', async () => {
    const response = await server.request('GET', '/webhook_calls');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { data: [], included: [], meta: { total_count: 0 } });
    assert.deepEqual(await client.webhookCalls.list(), []);
  });

  test('calls written by a model change are listed and found, with their webhook', async () => {
    const webhook = await buildWebhook(client, {
      events: [{ entity_type: 'item_type', event_types: ['create'] }],
    });
    await client.itemTypes.create({ name: 'Post', api_key: 'post' });
    await client.itemTypes.create({ name: 'Tag', api_key: 'tag' });

    const response = await server.request(
      'GET',
      `/webhook_calls?filter[fields][webhook_id][eq]=${webhook.id}&order_by=created_at_asc`,
    );
    const document = response.body as {
      data: { id: string; attributes: Record<string, unknown>; relationships: unknown }[];
      included: { id: string; type: string }[];
      meta: { total_count: number };
    };
    assert.equal(document.meta.total_count, 2);
    assert.equal(document.data.length, 2);
    assert.deepEqual(
      document.included.map((w) => [w.type, w.id]),
      [['webhook', webhook.id]],
      'the webhook is included once for both calls',
    );
    const [first] = document.data;
    assert.ok(first);
    assert.deepEqual(first.relationships, {
      webhook: { data: { type: 'webhook', id: webhook.id } },
    });
    assert.equal(first.attributes.entity_type, 'item_type');
    assert.equal(first.attributes.event_type, 'create');
    assert.match(first.attributes.created_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(Object.keys(first.attributes).sort(), [
      'attempted_auto_retries_count',
      'created_at',
      'entity_type',
      'event_type',
      'last_sent_at',
      'next_retry_at',
      'request_headers',
      'request_payload',
      'request_url',
      'response_headers',
      'response_payload',
      'response_status',
      'status',
    ]);

    const found = await server.request('GET', `/webhook_calls/${first.id}`);
    assert.equal(found.status, 200);
    const foundDocument = found.body as { data: { id: string }; included: { id: string }[] };
    assert.equal(foundDocument.data.id, first.id);
    assert.deepEqual(
      foundDocument.included.map((w) => w.id),
      [webhook.id],
    );
    const viaClient = await client.webhookCalls.find(first.id);
    assert.equal(viaClient.webhook.id, webhook.id);
  });

  test('find of an unknown or malformed id is NOT_FOUND', async () => {
    for (const id of ['987654', 'abc']) {
      await rejectsWithApiError(client.webhookCalls.find(id), 'NOT_FOUND');
    }
  });

  test('paginated: 30 by default, at most 500, with the total count', async () => {
    const webhook = await buildWebhook(client);
    for (let i = 0; i < 35; i += 1) await insertCall(webhook.id);
    const filter = { fields: { webhook_id: { eq: webhook.id } } };

    const firstPage = await server.request(
      'GET',
      `/webhook_calls?filter[fields][webhook_id][eq]=${webhook.id}`,
    );
    const body = firstPage.body as { data: unknown[]; meta: { total_count: number } };
    assert.equal(body.data.length, 30);
    assert.equal(body.meta.total_count, 35);

    const lastPage = await client.webhookCalls.rawList({ filter, page: { offset: 30, limit: 10 } });
    assert.equal(lastPage.data.length, 5);
    assert.equal(lastPage.meta.total_count, 35);

    const all: string[] = [];
    for await (const call of client.webhookCalls.listPagedIterator({ filter }, { perPage: 8 })) {
      all.push(call.id);
    }
    assert.equal(all.length, 35);
    assert.equal(new Set(all).size, 35, 'pages do not overlap');

    const max = await client.webhookCalls.rawList({ filter, page: { limit: 500 } });
    assert.equal(max.data.length, 35);
  });

  test('bad page parameters are INVALID_PARAMS', async () => {
    for (const query of [
      'page[limit]=0',
      'page[limit]=501',
      'page[limit]=ten',
      'page[offset]=-1',
      'page[offset]=1.5',
      'page=3',
      'order_by=name_asc',
      'order_by[]=created_at_asc',
      'unknown=1',
      'filter[name]=x',
      'filter[ids]=1,abc',
    ]) {
      const response = await server.request('GET', `/webhook_calls?${query}`);
      assert.equal(response.status, 422, query);
      assert.deepEqual(errorCodesOf(response.body), ['INVALID_PARAMS'], query);
    }
  });

  test('filters by ids, webhook, entity and event type, and status', async () => {
    const webhook = await buildWebhook(client);
    const other = await buildWebhook(client);
    const created = await insertCall(webhook.id, { eventType: 'create' });
    const updated = await insertCall(webhook.id, { eventType: 'update', status: 'failed' });
    const published = await insertCall(webhook.id, {
      entityType: 'item',
      eventType: 'publish',
      status: 'rescheduled',
    });
    const elsewhere = await insertCall(other.id, { eventType: 'update', status: 'failed' });
    const mine = { webhook_id: { eq: webhook.id } };
    const ascending = 'created_at_asc';

    assert.deepEqual(await idsOf({ filter: { fields: mine }, order_by: ascending }), [
      created,
      updated,
      published,
    ]);
    assert.deepEqual(
      await idsOf({ filter: { ids: `${published},${elsewhere}` }, order_by: ascending }),
      [published, elsewhere],
    );
    assert.deepEqual(
      await idsOf({ filter: { ids: published, fields: mine } }),
      [published],
      'ids and fields combine',
    );
    assert.deepEqual(
      await idsOf({ filter: { fields: { ...mine, entity_type: { eq: 'item' } } } }),
      [published],
    );
    assert.deepEqual(
      await idsOf({
        filter: {
          fields: { event_type: { eq: 'update' } },
          ids: `${updated},${elsewhere},${created}`,
        },
        order_by: ascending,
      }),
      [updated, elsewhere],
    );
    assert.deepEqual(await idsOf({ filter: { fields: { ...mine, status: { eq: 'failed' } } } }), [
      updated,
    ]);
    assert.deepEqual(
      await idsOf({
        filter: { fields: { webhook_id: { eq: other.id }, status: { eq: 'failed' } } },
      }),
      [elsewhere],
    );
  });

  test('filters by time ranges', async () => {
    const webhook = await buildWebhook(client);
    const mine = { webhook_id: { eq: webhook.id } };
    const early = await insertCall(webhook.id, {
      createdAt: '2024-01-01T00:00:00Z',
      lastSentAt: '2024-01-01T00:00:01Z',
      nextRetryAt: null,
    });
    const middle = await insertCall(webhook.id, {
      createdAt: '2024-02-01T00:00:00Z',
      lastSentAt: '2024-02-01T00:00:01Z',
      nextRetryAt: '2024-02-01T00:02:00Z',
      status: 'rescheduled',
    });
    const late = await insertCall(webhook.id, {
      createdAt: '2024-03-01T00:00:00Z',
      lastSentAt: null,
      status: 'pending',
    });
    const ascending = 'created_at_asc';

    assert.deepEqual(
      await idsOf({
        filter: { fields: { ...mine, created_at: { gt: '2024-01-15T00:00:00Z' } } },
        order_by: ascending,
      }),
      [middle, late],
    );
    assert.deepEqual(
      await idsOf({
        filter: {
          fields: {
            ...mine,
            created_at: { gt: '2024-01-15T00:00:00Z', lt: '2024-02-15T00:00:00.000Z' },
          },
        },
      }),
      [middle],
    );
    assert.deepEqual(
      await idsOf({
        filter: { fields: { ...mine, last_sent_at: { lt: '2024-02-01T00:00:00Z' } } },
      }),
      [early],
    );
    assert.deepEqual(
      await idsOf({
        filter: { fields: { ...mine, next_retry_at: { gt: '2024-01-01T00:00:00Z' } } },
      }),
      [middle],
    );
  });

  test('bad filter[fields] keys are INVALID_FILTER_FIELDS_PARAM, bad values INVALID_PARAMS', async () => {
    for (const query of [
      'filter[fields][name][eq]=x',
      'filter[fields][status][in]=failed',
      'filter[fields][created_at][eq]=2024-01-01T00:00:00Z',
      'filter[fields][status]=failed',
    ]) {
      const response = await server.request('GET', `/webhook_calls?${query}`);
      assert.equal(response.status, 422, query);
      assert.deepEqual(errorCodesOf(response.body), ['INVALID_FILTER_FIELDS_PARAM'], query);
    }
    for (const query of [
      'filter[fields][status][eq]=lost',
      'filter[fields][entity_type][eq]=comment',
      'filter[fields][event_type][eq]=explode',
      'filter[fields][webhook_id][eq]=abc',
      'filter[fields][created_at][gt]=yesterday',
      'filter[fields][status][eq][]=failed',
    ]) {
      const response = await server.request('GET', `/webhook_calls?${query}`);
      assert.equal(response.status, 422, query);
      assert.deepEqual(errorCodesOf(response.body), ['INVALID_PARAMS'], query);
    }
  });

  test('every order_by, with calls not yet sent or not rescheduled last', async () => {
    const first = await buildWebhook(client);
    const second = await buildWebhook(client);
    const a = await insertCall(first.id, {
      createdAt: '2024-01-01T00:00:00Z',
      lastSentAt: '2024-01-03T00:00:00Z',
      nextRetryAt: null,
    });
    const b = await insertCall(second.id, {
      createdAt: '2024-01-02T00:00:00Z',
      lastSentAt: null,
      nextRetryAt: '2024-01-05T00:00:00Z',
    });
    const c = await insertCall(first.id, {
      createdAt: '2024-01-03T00:00:00Z',
      lastSentAt: '2024-01-01T00:00:00Z',
      nextRetryAt: '2024-01-04T00:00:00Z',
    });
    const ids = { ids: [a, b, c].join(',') };
    const order = async (order_by: string) => idsOf({ filter: ids, order_by: order_by as never });

    assert.deepEqual(await idsOf({ filter: ids }), [c, b, a], 'default: newest first');
    assert.deepEqual(await order('created_at_desc'), [c, b, a]);
    assert.deepEqual(await order('created_at_asc'), [a, b, c]);
    assert.deepEqual(await order('webhook_id_asc'), [a, c, b]);
    assert.deepEqual(await order('webhook_id_desc'), [b, c, a]);
    assert.deepEqual(await order('last_sent_at_asc'), [c, a, b]);
    assert.deepEqual(await order('last_sent_at_desc'), [a, c, b]);
    assert.deepEqual(await order('next_retry_at_asc'), [c, b, a]);
    assert.deepEqual(await order('next_retry_at_desc'), [b, c, a]);
  });

  test('Authorization headers are masked in the log', async () => {
    const webhook = await buildWebhook(client);
    const id = await insertCall(webhook.id, {
      requestHeaders: { Authorization: 'Basic dXNlcjpzZWNyZXQ=', 'X-Custom': 'visible' },
      responseHeaders: { authorization: 'token-without-scheme', 'content-type': 'text/plain' },
    });
    const call = await client.webhookCalls.find(id);
    assert.deepEqual(call.request_headers, {
      Authorization: 'Basic [FILTERED]',
      'X-Custom': 'visible',
    });
    assert.deepEqual(call.response_headers, {
      authorization: '[FILTERED]',
      'content-type': 'text/plain',
    });
    const listed = await server.request('GET', `/webhook_calls?filter[ids]=${id}`);
    assert.doesNotMatch(JSON.stringify(listed.body), /dXNlcjpzZWNyZXQ|token-without-scheme/);
  });

  test('credentials stay out of the log: secret headers, and the basic-auth password of the webhooks it includes', async () => {
    const webhook = await buildWebhook(client, {
      headers: { 'X-Api-Key': 'k3y-value', 'X-Auth-Token': 't0ken', 'X-Team': 'content' },
      http_basic_user: 'hook',
      http_basic_password: 'pa55word',
    });
    const id = await insertCall(webhook.id, {
      requestHeaders: {
        Authorization: 'Basic aG9vazpwYTU1d29yZA==',
        'X-Api-Key': 'k3y-value',
        'X-Auth-Token': 't0ken',
        'X-Team': 'content',
      },
      responseHeaders: { 'Set-Cookie': 'session=s3ssion', 'content-type': 'text/plain' },
    });
    const listed = await server.request('GET', `/webhook_calls?filter[ids]=${id}`);
    const found = await server.request('GET', `/webhook_calls/${id}`);
    for (const response of [listed, found]) {
      const text = JSON.stringify(response.body);
      assert.doesNotMatch(text, /k3y-value|t0ken|pa55word|aG9vaz|s3ssion/);
      const [included] = (response.body as { included: { attributes: Record<string, unknown> }[] })
        .included;
      assert.deepEqual(included?.attributes.headers, {
        'X-Api-Key': '[FILTERED]',
        'X-Auth-Token': '[FILTERED]',
        'X-Team': 'content',
      });
      assert.equal(included?.attributes.http_basic_user, 'hook');
      assert.equal(included?.attributes.http_basic_password, '[FILTERED]');
    }
    const call = await client.webhookCalls.find(id);
    assert.deepEqual(call.request_headers, {
      Authorization: 'Basic [FILTERED]',
      'X-Api-Key': '[FILTERED]',
      'X-Auth-Token': '[FILTERED]',
      'X-Team': 'content',
    });
    assert.deepEqual(call.response_headers, {
      'Set-Cookie': '[FILTERED]',
      'content-type': 'text/plain',
    });
    // The webhook itself shows them, as DatoCMS documents it: whoever reads it may change it.
    const shown = await client.webhooks.find(webhook.id);
    assert.equal(shown.http_basic_password, 'pa55word');
    assert.equal(shown.headers['X-Api-Key'], 'k3y-value');
  });

  test('resend makes the call due again as a manual resend', async () => {
    const webhook = await buildWebhook(client);
    const id = await insertCall(webhook.id, { status: 'failed', nextRetryAt: null });

    const response = await server.request('POST', `/webhook_calls/${id}/resend_webhook`);
    assert.equal(response.status, 204);
    assert.equal(response.body, undefined);
    await client.webhookCalls.resendWebhook(id);

    const row = await server.db
      .selectFrom('webhook_calls')
      .select(['status', 'due_at', 'manual_resend', 'last_sent_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const attempts = await server.db
      .selectFrom('webhook_call_attempts')
      .select('manual')
      .where('webhook_call_id', '=', id)
      .execute();
    // Either it still waits for a worker, or a worker already made the manual attempt.
    const waiting = row.status === 'pending' && row.due_at !== null && row.manual_resend;
    const attempted = attempts.some((attempt) => attempt.manual);
    assert.ok(waiting || attempted, JSON.stringify({ row, attempts }));
    if (waiting) assert.ok(row.due_at && row.due_at.getTime() <= Date.now() + 1000);
  });

  test('resend of an unknown call, or of one whose webhook was deleted, is NOT_FOUND', async () => {
    for (const id of ['987654', 'abc']) {
      await rejectsWithApiError(client.webhookCalls.resendWebhook(id), 'NOT_FOUND');
    }
    const webhook = await buildWebhook(client);
    const id = await insertCall(webhook.id);
    await client.webhooks.destroy(webhook.id);
    await rejectsWithApiError(client.webhookCalls.resendWebhook(id), 'NOT_FOUND');
    await rejectsWithApiError(client.webhookCalls.find(id), 'NOT_FOUND');
  });

  test('list, find and resend need can_manage_webhooks', async () => {
    const webhook = await buildWebhook(client);
    const id = await insertCall(webhook.id);
    const limited = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_edit_schema']),
    });
    for (const call of [
      () => limited.webhookCalls.list(),
      () => limited.webhookCalls.find(id),
      () => limited.webhookCalls.resendWebhook(id),
    ]) {
      await rejectsWithApiError(call(), 'INSUFFICIENT_PERMISSIONS');
    }
    const manager = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_manage_webhooks']),
    });
    assert.equal((await manager.webhookCalls.find(id)).id, id);
  });
});
