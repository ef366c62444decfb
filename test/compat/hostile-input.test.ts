import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { withStatementTimeout } from '../../src/db/engine/statement-timeout.ts';
import { FILTER_PATTERN_TIMEOUT_MS, MAX_FILTER_PATTERN_LENGTH } from '../../src/domain/limits.ts';
import { apiError, rejectsWithApiError, rejectsWithMessage } from '../support/api-errors.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// Issue 13, items 2 and 3: text no column can hold is refused at the edge, and every
// refusal, Fastify's and Node's own included, is an api_error document the client reads.

const server = useTestServer();
let itemTypeId: string;
let fieldId: string;
before(async () => {
  const client = server.client();
  const itemType = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  itemTypeId = itemType.id;
  const field = await client.fields.create(itemTypeId, {
    label: 'Title',
    api_key: 'title',
    field_type: 'string',
  });
  fieldId = field.id;
});

type ErrorEntry = { type: string; attributes: { code: string; details: Record<string, unknown> } };
type Response = { status: number; contentType: string; body: unknown };

/** A raw request: the bytes of the path and body go out exactly as given. */
function send(method: string, path: string, body?: string | Buffer): Promise<Response> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          authorization: `Bearer ${server.adminToken}`,
          accept: 'application/json',
          'content-type': 'application/json',
          'x-api-version': '3',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: text === '' ? undefined : JSON.parse(text),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Asserts an application/json api_error document with this status and code; returns it. */
function assertApiError(response: Response, status: number, code: string): ErrorEntry {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.match(response.contentType, /^application\/json/);
  const [entry] = (response.body as { data: ErrorEntry[] }).data;
  assert.equal(entry?.type, 'api_error');
  assert.equal(entry?.attributes.code, code);
  return entry;
}

async function schemaSnapshot(): Promise<unknown> {
  const site = await send('GET', '/site?include=item_types,item_types.fields,item_types.fieldsets');
  const events = await server.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return { site: site.body, events: Number(events.count) };
}

/** Every registered route with a path id, as the committed OpenAPI document lists them. */
function routesWithId(): { method: string; path: string }[] {
  const document = JSON.parse(readFileSync('openapi.json', 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    path.includes('{id}')
      ? Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path }))
      : [],
  );
}

const itemTypeBody = (attributes: string) =>
  `{"data":{"type":"item_type","attributes":${attributes}}}`;

describe('NUL and lone surrogates', () => {
  test('a NUL in a string attribute is 422 INVALID_FIELD naming it; nothing is created', async () => {
    const before = await schemaSnapshot();
    const response = await send(
      'POST',
      '/item-types',
      itemTypeBody('{"name":"Bad\\u0000name","api_key":"bad_name"}'),
    );
    const entry = assertApiError(response, 422, 'INVALID_FIELD');
    assert.equal(entry.attributes.details.field, 'data.attributes.name');
    assert.deepEqual(await schemaSnapshot(), before);
  });

  test('a NUL through the official client is an ApiError naming the attribute', async () => {
    const call = server.client().fields.update(fieldId, { hint: 'a\u0000b' });
    await assert.rejects(call, (error) => {
      assert.ok(apiError(error).findError('INVALID_FIELD', { field: 'data.attributes.hint' }));
      return true;
    });
    const field = await server.client().fields.find(fieldId);
    assert.equal(field.hint, null);
  });

  test('a lone surrogate in default_value is 422, not 500', async () => {
    const before = await schemaSnapshot();
    const response = await send(
      'PUT',
      `/fields/${fieldId}`,
      '{"data":{"type":"field","id":"x","attributes":{"default_value":"\\udc00"}}}',
    );
    const entry = assertApiError(response, 422, 'INVALID_FIELD');
    assert.equal(entry.attributes.details.field, 'data.attributes.default_value');
    assert.deepEqual(await schemaSnapshot(), before);
  });

  test('a lone surrogate in another text attribute is refused, not stored as U+FFFD', async () => {
    const response = await send(
      'PUT',
      `/fields/${fieldId}`,
      `{"data":{"type":"field","id":"${fieldId}","attributes":{"hint":"x\\ud800y"}}}`,
    );
    const entry = assertApiError(response, 422, 'INVALID_FIELD');
    assert.equal(entry.attributes.details.field, 'data.attributes.hint');
    const field = await server.client().fields.find(fieldId);
    assert.equal(field.hint, null);
  });

  test('a surrogate pair (an emoji) is ordinary text and is stored', async () => {
    const field = await server.client().fields.update(fieldId, { hint: 'ok \u{1F600}' });
    assert.equal(field.hint, 'ok \u{1F600}');
    await server.client().fields.update(fieldId, { hint: null });
  });

  test('a NUL in a key inside a JSON attribute is named by its path', async () => {
    const response = await send(
      'PUT',
      `/fields/${fieldId}`,
      `{"data":{"type":"field","id":"${fieldId}","attributes":{"validators":{"length\\u0000":{"max":3}}}}}`,
    );
    const entry = assertApiError(response, 422, 'INVALID_FIELD');
    assert.equal(entry.attributes.details.field, 'data.attributes.validators.length\\u0000');
  });

  test('a NUL in a relationship id is 422 naming it', async () => {
    const response = await send(
      'POST',
      `/item-types/${itemTypeId}/fields`,
      JSON.stringify({
        data: {
          type: 'field',
          attributes: { label: 'Body', api_key: 'body', field_type: 'text' },
          relationships: { fieldset: { data: { type: 'fieldset', id: 'a\u0000' } } },
        },
      }),
    );
    const entry = assertApiError(response, 422, 'INVALID_FIELD');
    assert.equal(entry.attributes.details.field, 'data.relationships.fieldset.data.id');
  });

  test('a NUL in filter[ids] is 422 INVALID_PARAMS naming filter[ids]', async () => {
    for (const path of ['/menu-items', '/schema-menu-items']) {
      const response = await send('GET', `${path}?filter[ids]=a%00b`);
      const entry = assertApiError(response, 422, 'INVALID_PARAMS');
      assert.equal(entry.attributes.details.field, 'filter[ids]');
    }
  });

  test('a NUL in a path id is 404 NOT_FOUND on every route with an id', async () => {
    const routes = routesWithId();
    assert.ok(routes.length >= 34, `${routes.length} routes with an id`);
    const before = await schemaSnapshot();
    for (const { method, path } of routes) {
      const response = await send(method, path.replaceAll('{id}', 'a%00b'));
      assertApiError(response, 404, 'NOT_FOUND');
    }
    assert.deepEqual(await schemaSnapshot(), before);
  });

  test('a body that is not UTF-8 is 400 INVALID_JSON_BODY, not decoded to U+FFFD', async () => {
    const body = Buffer.concat([
      Buffer.from('{"data":{"type":"item_type","attributes":{"name":"Caf'),
      Buffer.from([0xe9]),
      Buffer.from('","api_key":"cafe"}}}'),
    ]);
    const response = await send('POST', '/item-types', body);
    assertApiError(response, 400, 'INVALID_JSON_BODY');
    const all = await server.client().itemTypes.list();
    assert.ok(!all.some((itemType) => itemType.api_key === 'cafe'));
  });

  test('a __proto__ key is dropped from a body, spelt plainly or through \\u escapes', async () => {
    const hintBody = (key: string, hint: string) =>
      `{"data":{"type":"field","id":"${fieldId}","attributes":{"hint":"${hint}","${key}":{"polluted":true}}}}`;
    // Any other unknown attribute is refused: the key below is dropped, not merely allowed.
    assertApiError(
      await send('PUT', `/fields/${fieldId}`, hintBody('__proto_', 'x')),
      422,
      'INVALID_FORMAT',
    );
    for (const [key, hint] of [
      ['__proto__', 'plain'],
      ['\\u005f\\u005fproto\\u005f\\u005f', 'escaped'],
      ['__pr\\u006fto__', 'one letter escaped'],
    ] as const) {
      const response = await send('PUT', `/fields/${fieldId}`, hintBody(key, hint));
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.equal((await server.client().fields.find(fieldId)).hint, hint);
    }
  });

  test('a body nested 20,000 levels deep is judged as JSON, \\u escapes or not', async () => {
    // A recursive walk over such a body would overflow the call stack and refuse valid
    // JSON as invalid; both bodies must get the answer the attribute itself deserves.
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    for (const hint of ['plain', '\\u0041 escaped']) {
      const body = `{"data":{"type":"field","id":"${fieldId}","attributes":{"hint":"${hint}","appearance":${deep}}}}`;
      const response = await send('PUT', `/fields/${fieldId}`, body);
      assertApiError(response, 422, 'INVALID_FORMAT');
    }
    assert.notEqual((await server.client().fields.find(fieldId)).hint, 'A escaped');
  });
});

describe('framework and HTTP parser refusals are api_error documents', () => {
  test('a path id over 100 characters is 404 NOT_FOUND', async () => {
    const response = await send('GET', `/item-types/${'x'.repeat(150)}`);
    assertApiError(response, 404, 'NOT_FOUND');
    await assert.rejects(server.client().itemTypes.find('y'.repeat(150)), (error) => {
      assert.ok(apiError(error).findError('NOT_FOUND'));
      return true;
    });
  });

  test('a bad percent-escape in the path is 400 INVALID_REQUEST', async () => {
    const response = await send('GET', '/item-types/%zz');
    assertApiError(response, 400, 'INVALID_REQUEST');
  });

  test('a query string over 16 KB is 431 REQUEST_HEADERS_TOO_LARGE', async () => {
    const response = await send('GET', `/item-types?x=${'a'.repeat(17 * 1024)}`);
    assertApiError(response, 431, 'REQUEST_HEADERS_TOO_LARGE');
  });

  test('malformed HTTP (a NUL in a header) is 400 INVALID_REQUEST, as an api_error document', async () => {
    const url = new URL(server.baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('GET /site HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n');
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('utf8');
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /content-type: application\/json/i);
    assertApiError(
      { status: 400, contentType: 'application/json', body: JSON.parse(body) },
      400,
      'INVALID_REQUEST',
    );
  });

  test('the server still answers after the HTTP parser refused a request', async () => {
    await send('GET', `/site?x=${'a'.repeat(20 * 1024)}`);
    const site = await server.client().site.find();
    assert.ok(site.id);
  });
});

// Issue 23, items 1, 3 and 4: patterns and text a client sends run in bounded time. Each
// hostile input below ran for minutes or hours before (backtracking engines); the server
// must answer it and, in the meantime, answer others: the server runs in this process, so
// a stalled event loop would hold `/healthz` too. The test timeout only ends such a hang.
describe('user-supplied patterns and text cannot stall the server', { timeout: 300_000 }, () => {
  const client = server.client();

  /** The answer to `call`, once `/healthz` has answered too, sent while `call` was in flight. */
  async function alongsideHealthz<T>(call: Promise<T>): Promise<T> {
    const health = fetch(`${server.baseUrl}/healthz`);
    const [outcome, probe] = await Promise.allSettled([call, health]);
    assert.equal(probe.status === 'fulfilled' && probe.value.status, 200);
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  }

  async function modelWith(field: Record<string, unknown>) {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'value', ...field });
    return model.id;
  }

  test('a matches pattern with backreferences is refused with 422 naming it, not run', async () => {
    const modelId = await modelWith({ field_type: 'string' });
    // An odd count of a's before the x: only backtracking through every split can tell.
    await client.items.create({ item_type: itemTypeRef(modelId), value: `${'a'.repeat(1501)}x` });
    const list = (fields: Record<string, unknown>) =>
      client.items.list({ filter: { type: modelId, fields } } as Parameters<
        typeof client.items.list
      >[0]);
    await alongsideHealthz(
      rejectsWithMessage(
        list({ value: { matches: { pattern: '^(a*)(a*)\\1\\2x$' } } }),
        'INVALID_FILTER_FIELDS_PARAM',
        /^filter\[fields\]\[value\]\[matches\]\[pattern\] uses a backreference/,
      ),
    );
    for (const [pattern, problem] of [
      ['(?=a)a', /is not a valid regular expression for this server .*lookahead/],
      ['(?<!b)a', /is not a valid regular expression for this server .*lookbehind/],
      ['(a)\\12', /uses a backreference/],
      ['(?:\\w|\\W|\\s){1,255}', /is too large: .* at most 2000/],
      ['a'.repeat(MAX_FILTER_PATTERN_LENGTH + 1), /is longer than 1000 characters/],
    ] as const) {
      await rejectsWithMessage(
        list({ OR: [{ value: { not_matches: { pattern } } }] }),
        'INVALID_FILTER_FIELDS_PARAM',
        new RegExp(
          `^filter\\[fields\\]\\[OR\\]\\[0\\]\\[value\\]\\[not_matches\\]\\[pattern\\] ${problem.source}`,
        ),
      );
    }
    await rejectsWithApiError(
      list({ value: { matches: { pattern: 'a'.repeat(1001), regexp: false } } }),
      'INVALID_FILTER_FIELDS_PARAM',
    );
    // Ordinary patterns, counted repetitions included, still find the record.
    for (const pattern of [
      `^${'a{250}'.repeat(6)}a{1}x$`,
      '^(a|x)+$',
      '^A+X$',
      '^[[:alpha:]]{3,}$',
      '(?:aa){250}',
    ]) {
      const found = await alongsideHealthz(list({ value: { matches: { pattern } } }));
      assert.equal(found.length, 1, pattern);
    }
    const literal = await list({
      value: { matches: { pattern: 'a'.repeat(1000), regexp: false } },
    });
    assert.equal(literal.length, 1);
  });

  test('statements running patterns run under the statement timeout, for their transaction only', async () => {
    const setting = () =>
      sql<{ timeout: string }>`SELECT current_setting('statement_timeout') AS timeout`;
    const inside = await withStatementTimeout(
      server.db,
      FILTER_PATTERN_TIMEOUT_MS,
      async (db) => (await setting().execute(db)).rows[0]?.timeout,
    );
    assert.equal(inside, `${FILTER_PATTERN_TIMEOUT_MS / 1000}s`);
    const after = await server.db
      .transaction()
      .execute(async (trx) => (await setting().execute(trx)).rows[0]?.timeout);
    assert.equal(after, '0');
  });

  test('a format pattern that backtracks exponentially is run in linear time', async () => {
    const modelId = await modelWith({
      field_type: 'string',
      validators: { format: { custom_pattern: '^(a+)+$' } },
    });
    const create = (value: string) =>
      client.items.create({ item_type: itemTypeRef(modelId), value });
    await alongsideHealthz(
      rejectsWithApiError(create(`${'a'.repeat(40)}!`), 'INVALID_FIELD', {
        code: 'VALIDATION_FORMAT',
      }),
    );
    assert.equal((await alongsideHealthz(create('a'.repeat(40)))).value, 'a'.repeat(40));
  });

  test('a slug pattern that backtracks exponentially is run in linear time', async () => {
    const modelId = await modelWith({
      field_type: 'slug',
      validators: { slug_format: { custom_pattern: '^(a|aa)+$' } },
    });
    const create = (value: string) =>
      client.items.create({ item_type: itemTypeRef(modelId), value });
    await alongsideHealthz(
      rejectsWithApiError(create(`${'a'.repeat(60)}b`), 'INVALID_FIELD', {
        code: 'VALIDATION_SLUG_FORMAT',
      }),
    );
    assert.equal((await create('aaa')).value, 'aaa');
  });

  test('format patterns keep JavaScript syntax; one RE2 cannot run is kept, not enforced', async () => {
    const modelId = await modelWith({
      field_type: 'string',
      validators: { format: { custom_pattern: '^(?<year>\\d{4})-\\u0030\\d$' } },
    });
    const create = (value: string) =>
      client.items.create({ item_type: itemTypeRef(modelId), value });
    assert.equal((await create('2024-01')).value, '2024-01');
    await rejectsWithApiError(create('2024-1'), 'INVALID_FIELD', { code: 'VALIDATION_FORMAT' });

    const lookahead = await buildField(client, {
      itemTypeId: await buildModel(client).then((model) => model.id),
      field_type: 'string',
      validators: { format: { custom_pattern: '^(?!admin)' } },
    });
    assert.deepEqual(lookahead.validators, { format: { custom_pattern: '^(?!admin)' } });
    const record = await client.items.create({
      item_type: itemTypeRef(lookahead.item_type.id),
      [lookahead.api_key]: 'admin',
    });
    assert.equal(record[lookahead.api_key], 'admin');
  });

  test('sanitized_html reads a megabyte of spaces, or of an open attribute, in linear time', async () => {
    const modelId = await modelWith({
      field_type: 'text',
      validators: { sanitized_html: { sanitize_before_validation: false } },
    });
    const create = (value: string) =>
      client.items.create({ item_type: itemTypeRef(modelId), value });
    const spaces = ' '.repeat(900_000);
    assert.equal((await alongsideHealthz(create(spaces))).value, spaces);
    const openHref = `<a href="${' '.repeat(900_000)}`;
    assert.equal((await alongsideHealthz(create(openHref))).value, openHref);
    const opened = `<p${' onclick="'.repeat(80_000)}`;
    await alongsideHealthz(
      rejectsWithApiError(create(opened), 'INVALID_FIELD', { code: 'VALIDATION_SANITIZED_HTML' }),
    );
    await rejectsWithApiError(create(`<p${' '.repeat(1000)}onclick="x">`), 'INVALID_FIELD', {
      code: 'VALIDATION_SANITIZED_HTML',
    });
  });
});
