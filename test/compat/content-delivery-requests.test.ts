import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ApiError, executeQuery } from '@datocms/cda-client';
import { deliveryToken } from '../support/delivery-tokens.ts';
import { buildField, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// Three requests per token in a window of 3 s: FIELDHOUSE_CDA_RATE_LIMIT's units are
// s/min/h (test/unit/config.test.ts); a longer window keeps a busy machine's slow
// requests inside it.
const LIMIT = 3;
const server = useTestServer({ cdaRateLimit: [{ limit: LIMIT, windowSeconds: 3 }] });
const client = server.client();

let endpoint: string;
const ARTICLES = '{ allArticles { title } }';

before(async () => {
  await server.ready();
  endpoint = `${server.baseUrl}/graphql`;
  const article = await client.itemTypes.create(
    { name: 'Article', api_key: 'article' },
    { skip_menu_item_creation: true },
  );
  await buildField(client, { itemTypeId: article.id, api_key: 'title', field_type: 'string' });
  await client.items.create({ item_type: itemTypeRef(article.id), title: 'Hello' });
});

function post(token: string | null, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoint, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query: ARTICLES }),
  });
}

type ErrorBody = { data: { attributes: { code: string; details: { message: string } } }[] };

async function errorOf(response: Response): Promise<{ code?: string; message?: string }> {
  const attributes = ((await response.json()) as ErrorBody).data[0]?.attributes;
  return { code: attributes?.code, message: attributes?.details.message };
}

describe('X-Visual-Editing', () => {
  test("v1 and vercel-v1 (the client's contentLink) are accepted; strings stay plain", async () => {
    const token = await deliveryToken(server.db, { preview: false });
    for (const contentLink of ['v1', 'vercel-v1'] as const) {
      const data = await executeQuery<{ allArticles: { title: string }[] }>(ARTICLES, {
        token,
        graphqlEndpointUrl: endpoint,
        contentLink,
        autoRetry: false,
      });
      assert.deepEqual(data.allArticles, [{ title: 'Hello' }]);
    }
  });

  test('any other value is refused as the other bad headers are: 422, an api_error', async () => {
    const token = await deliveryToken(server.db, { preview: false });
    for (const value of ['v2', 'V1', '']) {
      const response = await post(token, { 'x-visual-editing': value });
      assert.equal(response.status, 422, `"${value}"`);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(await errorOf(response), {
        code: 'INVALID_X_VISUAL_EDITING_HEADER',
        message: 'X-Visual-Editing header can only be set to `v1` or `vercel-v1`',
      });
    }
  });
});

describe('FIELDHOUSE_CDA_RATE_LIMIT', () => {
  test('each token has its budget; past it 429, X-RateLimit-Reset and RATE_LIMIT_EXCEEDED', async () => {
    const token = await deliveryToken(server.db, { preview: false });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const response = await post(token);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), String(LIMIT));
      remaining.push(response.headers.get('x-ratelimit-remaining'));
      await response.body?.cancel();
    }
    assert.deepEqual(remaining, ['2', '1', '0']);

    const throttled = await post(token);
    assert.equal(throttled.status, 429);
    assert.match(throttled.headers.get('content-type') ?? '', /application\/json/);
    const reset = Number(throttled.headers.get('x-ratelimit-reset'));
    assert.ok(Number.isInteger(reset) && reset >= 1 && reset <= 3, `reset ${reset}`);
    assert.match(throttled.headers.get('access-control-expose-headers') ?? '', /X-RateLimit-Reset/);
    assert.equal((await errorOf(throttled)).code, 'RATE_LIMIT_EXCEEDED');

    const refused = await executeQuery(ARTICLES, {
      token,
      graphqlEndpointUrl: endpoint,
      autoRetry: false,
    }).then(
      () => assert.fail('the query was answered'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof ApiError);
    assert.equal(refused.response.status, 429);

    const other = await deliveryToken(server.db, { preview: false });
    const otherResponse = await post(other);
    assert.equal(otherResponse.status, 200, 'another token counts apart');
    assert.equal(otherResponse.headers.get('x-ratelimit-remaining'), '2');
    await otherResponse.body?.cancel();
  });

  test('requests without a valid token are refused before they are counted', async () => {
    for (let i = 0; i <= LIMIT; i++) {
      const anonymous = await post(null);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('x-ratelimit-limit'), null);
      const unknown = await post('not-a-token');
      assert.equal(unknown.status, 401);
      await Promise.all([anonymous.body?.cancel(), unknown.body?.cancel()]);
    }
  });

  test('the official client with autoRetry waits X-RateLimit-Reset and gets every answer', async () => {
    const token = await deliveryToken(server.db, { preview: false });
    const statuses: number[] = [];
    const countingFetch: typeof fetch = async (url, init) => {
      const response = await fetch(url, init);
      statuses.push(response.status);
      return response;
    };
    for (let i = 0; i < LIMIT + 2; i++) {
      const data = await executeQuery<{ allArticles: { title: string }[] }>(ARTICLES, {
        token,
        graphqlEndpointUrl: endpoint,
        fetchFn: countingFetch,
      });
      assert.deepEqual(data.allArticles, [{ title: 'Hello' }]);
    }
    assert.ok(statuses.includes(429), `throttled on the way: ${statuses}`);
    assert.equal(statuses.filter((status) => status === 200).length, LIMIT + 2);
  });
});
