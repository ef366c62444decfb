import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiError } from '../support/api-errors.ts';
import { createApiToken } from '../support/api-tokens.ts';
import { ADMIN_TOKEN, useTestServer } from '../support/server.ts';

const server = useTestServer();

type Response = { status: number; headers: Headers; body: unknown };

/**
 * A raw call starting from the headers the official client sends; a header set to
 * null is left out.
 */
async function call(
  method: string,
  path: string,
  options: { headers?: Record<string, string | null>; body?: string } = {},
): Promise<Response> {
  const headers: Record<string, string | null> = {
    authorization: `Bearer ${ADMIN_TOKEN}`,
    accept: 'application/json',
    'content-type': 'application/json',
    'x-api-version': '3',
    ...options.headers,
  };
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
    body: options.body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

type ErrorEntry = {
  id: string;
  type: string;
  attributes: { code: string; doc_url: string; details: Record<string, unknown> };
};

/** Checks the parts every answer shares, then the error document's shape; returns its first entry. */
function assertError(response: Response, status: number, code: string): ErrorEntry {
  assertJsonResponse(response);
  assert.equal(response.status, status, JSON.stringify(response.body));
  const entries = (response.body as { data: ErrorEntry[] }).data;
  assert.ok(Array.isArray(entries) && entries.length > 0);
  const [entry] = entries as [ErrorEntry];
  assert.match(entry.id, /^[0-9a-f]{6}$/);
  assert.equal(entry.type, 'api_error');
  assert.equal(entry.attributes.code, code);
  assert.equal(
    entry.attributes.doc_url,
    `https://www.datocms.com/docs/content-management-api/errors#${code}`,
  );
  return entry;
}

function assertJsonResponse(response: Response): void {
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  assert.ok(response.headers.get('x-request-id'), 'X-Request-Id is sent');
}

const itemTypeDocument = (attributes: Record<string, unknown>, type = 'item_type') =>
  JSON.stringify({ data: { type, attributes } });

describe('authentication', () => {
  test('a wrong token is 401 INVALID_AUTHORIZATION_HEADER, raw and through the client', async () => {
    const response = await call('GET', '/item-types', {
      headers: { authorization: 'Bearer not-a-token' },
    });
    assertError(response, 401, 'INVALID_AUTHORIZATION_HEADER');
    await assert.rejects(server.client({ apiToken: 'XXX' }).itemTypes.list(), (error) => {
      assert.equal(apiError(error).response.status, 401);
      return apiError(error).findError('INVALID_AUTHORIZATION_HEADER') !== undefined;
    });
  });

  test('"Bearer null", which the client sends without a token, is a wrong token', async () => {
    const response = await call('GET', '/item-types', {
      headers: { authorization: 'Bearer null' },
    });
    assertError(response, 401, 'INVALID_AUTHORIZATION_HEADER');
  });

  test('a missing Authorization header is 401 INVALID_SITE', async () => {
    const response = await call('GET', '/item-types', { headers: { authorization: null } });
    assertError(response, 401, 'INVALID_SITE');
  });

  test('a token without CMA access is refused', async () => {
    const admin = server.client();
    const { token, tokenId } = await createApiToken(admin, { environments_access: 'all' });
    const found = await admin.accessTokens.find(tokenId);
    await admin.accessTokens.update(tokenId, {
      name: found.name,
      can_access_cda: true,
      can_access_cda_preview: false,
      can_access_cma: false,
    });
    const response = await call('GET', '/item-types', {
      headers: { authorization: `Bearer ${token}` },
    });
    assertError(response, 401, 'INVALID_AUTHORIZATION_HEADER');
  });
});

describe('negotiation headers', () => {
  test('Accept missing or */* is 406 INVALID_ACCEPT_HEADER', async () => {
    assertError(
      await call('GET', '/item-types', { headers: { accept: null } }),
      406,
      'INVALID_ACCEPT_HEADER',
    );
    assertError(
      await call('GET', '/item-types', { headers: { accept: '*/*' } }),
      406,
      'INVALID_ACCEPT_HEADER',
    );
  });

  test('application/vnd.api+json is accepted for Accept and Content-Type', async () => {
    const vnd = 'application/vnd.api+json';
    const listed = await call('GET', '/item-types', { headers: { accept: vnd } });
    assertJsonResponse(listed);
    assert.equal(listed.status, 200);
    const created = await call('POST', '/item-types', {
      headers: { accept: vnd, 'content-type': vnd },
      body: itemTypeDocument({ name: 'Vnd', api_key: 'vnd' }),
    });
    assertJsonResponse(created);
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  test('a Content-Type with a charset parameter is JSON', async () => {
    const created = await call('POST', '/item-types', {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: itemTypeDocument({ name: 'Charset', api_key: 'charset' }),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  test('X-Api-Version other than 3 is 400 INVALID_API_VERSION; absent is version 3', async () => {
    assertError(
      await call('GET', '/item-types', { headers: { 'x-api-version': '2' } }),
      400,
      'INVALID_API_VERSION',
    );
    const absent = await call('GET', '/item-types', { headers: { 'x-api-version': null } });
    assertJsonResponse(absent);
    assert.equal(absent.status, 200);
    assert.equal(absent.headers.get('x-api-version'), '3');
  });

  test('an unknown X-Environment is 404 INVALID_ENVIRONMENT; main is served', async () => {
    assertError(
      await call('GET', '/item-types', { headers: { 'x-environment': 'nope' } }),
      404,
      'INVALID_ENVIRONMENT',
    );
    const main = await call('GET', '/item-types', { headers: { 'x-environment': 'main' } });
    assert.equal(main.status, 200);
    assert.ok(Array.isArray(await server.client({ environment: 'main' }).itemTypes.list()));
  });
});

describe('routing', () => {
  test('an unknown route or method is 404 INVALID_ENDPOINT, before any token check', async () => {
    const anonymous = { authorization: null, accept: null };
    assertError(await call('GET', '/nope', { headers: anonymous }), 404, 'INVALID_ENDPOINT');
    assertError(
      await call('PATCH', '/item-types', { headers: anonymous }),
      404,
      'INVALID_ENDPOINT',
    );
    assertError(await call('DELETE', '/item-types'), 404, 'INVALID_ENDPOINT');
    assertError(
      await call('GET', '/item-types', { headers: { authorization: 'Bearer wrong' } }),
      401,
      'INVALID_AUTHORIZATION_HEADER',
    );
  });
});

describe('request documents', () => {
  test('malformed JSON is 400 INVALID_JSON_BODY', async () => {
    const response = await call('POST', '/item-types', { body: '{"data": {' });
    assertError(response, 400, 'INVALID_JSON_BODY');
  });

  test('a text/plain body is 415 INVALID_CONTENT_TYPE_HEADER', async () => {
    const response = await call('POST', '/item-types', {
      headers: { 'content-type': 'text/plain' },
      body: itemTypeDocument({ name: 'Plain', api_key: 'plain' }),
    });
    assertError(response, 415, 'INVALID_CONTENT_TYPE_HEADER');
  });

  test('an oversized body is answered in JSON too', async () => {
    const response = await call('POST', '/item-types', {
      body: itemTypeDocument({ name: 'x'.repeat(2 * 1024 * 1024), api_key: 'big' }),
    });
    assertError(response, 413, 'REQUEST_BODY_TOO_LARGE');
  });

  test('an unknown attribute is 422 INVALID_FORMAT listing the offending member', async () => {
    const response = await call('POST', '/item-types', {
      body: itemTypeDocument({ name: 'Extra', api_key: 'extra', bogus: true }),
    });
    const entry = assertError(response, 422, 'INVALID_FORMAT');
    const messages = entry.attributes.details.messages as string[];
    assert.ok(Array.isArray(messages));
    assert.ok(
      messages.some((message) => message.includes('bogus')),
      JSON.stringify(messages),
    );
  });

  test('a wrong or missing data.type is 422 INVALID_TYPE', async () => {
    const wrong = await call('POST', '/item-types', {
      body: itemTypeDocument({ name: 'Typed', api_key: 'typed' }, 'field'),
    });
    const entry = assertError(wrong, 422, 'INVALID_TYPE');
    assert.equal(entry.attributes.details.expected, 'item_type');
    assert.equal(entry.attributes.details.actual, 'field');
    const missing = await call('POST', '/item-types', {
      body: JSON.stringify({ data: { attributes: { name: 'Untyped', api_key: 'untyped' } } }),
    });
    assertError(missing, 422, 'INVALID_TYPE');
  });

  test('a body-less POST with Content-Type application/json is served', async () => {
    const model = await server.client().itemTypes.create({ name: 'Original', api_key: 'original' });
    const response = await call('POST', `/item-types/${model.id}/duplicate`);
    assertJsonResponse(response);
    assert.equal(response.status, 201, JSON.stringify(response.body));
    const copy = (response.body as { data: { attributes: { api_key: string } } }).data;
    assert.equal(copy.attributes.api_key, 'original_copy1');
  });
});

describe('permissions', () => {
  test('a role without can_edit_schema reads the schema but cannot change it', async () => {
    const { token } = await createApiToken(server.client(), { environments_access: 'all' });
    const client = server.client({ apiToken: token });
    assert.ok(Array.isArray(await client.itemTypes.list()));
    await assert.rejects(
      client.itemTypes.create({ name: 'Denied', api_key: 'denied' }),
      (error) => {
        assert.equal(apiError(error).response.status, 403);
        return apiError(error).findError('INSUFFICIENT_PERMISSIONS') !== undefined;
      },
    );
  });

  test('a role with environments_access "none" is refused everywhere', async () => {
    const { token } = await createApiToken(server.client(), {
      environments_access: 'none',
      can_edit_schema: true,
    });
    const response = await call('GET', '/item-types', {
      headers: { authorization: `Bearer ${token}` },
    });
    assertError(response, 403, 'INSUFFICIENT_PERMISSIONS');
  });
});

describe('asynchronous jobs', () => {
  const asyncServer = useTestServer({ asyncJobs: true });

  test('an async endpoint answers 202 + job, and the client resolves it via /job-results', async () => {
    const client = asyncServer.client();
    const model = await client.itemTypes.create({ name: 'Job', api_key: 'job' });

    const accepted = await asyncServer.request('PUT', `/item-types/${model.id}`, {
      data: { type: 'item_type', id: model.id, attributes: { hint: 'raw' } },
    });
    assert.equal(accepted.status, 202);
    const job = (accepted.body as { data: { type: string; id: string } }).data;
    assert.equal(job.type, 'job');
    assert.match(job.id, /^\d+$/);
    const result = await asyncServer.request('GET', `/job-results/${job.id}`);
    assert.equal(result.status, 200);
    assert.deepEqual(result.body, {
      data: {
        type: 'job_result',
        id: job.id,
        attributes: {
          status: 200,
          payload: (await asyncServer.request('GET', `/item-types/${model.id}`)).body,
        },
      },
    });

    // Job results belong to the token that started the job.
    const { token } = await createApiToken(client, { environments_access: 'all' });
    const foreign = await asyncServer.request('GET', `/job-results/${job.id}`, undefined, {
      authorization: `Bearer ${token}`,
    });
    assertError(foreign, 404, 'NOT_FOUND');

    const updated = await client.itemTypes.update(model.id, { hint: 'through the client' });
    assert.equal(updated.hint, 'through the client');
    assert.equal(updated.id, model.id);
  });
});
