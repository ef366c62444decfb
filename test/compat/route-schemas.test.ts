import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import AjvCompiler from '@fastify/ajv-compiler';
import { AJV_OPTIONS } from '../../src/http/validators.ts';
import { errorCodesOf } from '../support/api-errors.ts';
import { appRoutes } from '../support/app-routes.ts';
import { useTestServer } from '../support/server.ts';

// Route validators compile on each route's first request (src/http/validators.ts), so a
// schema Ajv refuses would no longer stop the start: this compiles them all here instead.

const PARTS = ['body', 'querystring', 'params', 'headers'] as const;

describe('route validators', () => {
  const server = useTestServer();

  test("every route's request schemas compile with the app's Ajv options", async () => {
    const compile = AjvCompiler()({}, AJV_OPTIONS);
    let compiled = 0;
    for (const route of await appRoutes()) {
      const schema = route.schema as Partial<Record<(typeof PARTS)[number], unknown>> | undefined;
      for (const httpPart of PARTS) {
        if (schema?.[httpPart] === undefined) continue;
        const where = `${String(route.method)} ${route.url} ${httpPart}`;
        assert.doesNotThrow(
          () =>
            compile({
              schema: schema[httpPart],
              method: String(route.method),
              url: route.url,
              httpPart,
            }),
          where,
        );
        compiled++;
      }
    }
    assert.ok(compiled >= 40, `only ${compiled} schemas found`);
  });

  test('response schemas document answers without reshaping them: members and their order are as presented', async () => {
    const response = await fetch(`${server.baseUrl}/site`, {
      headers: {
        authorization: `Bearer ${server.adminToken}`,
        accept: 'application/json',
        'x-api-version': '3',
      },
    });
    const text = await response.text();
    // `domain` is not in the site's response schema: a schema serializer would drop it,
    // or write it after the members the schema names.
    const attributes = Object.keys(JSON.parse(text).data.attributes);
    assert.deepEqual(attributes.slice(0, 3), ['name', 'domain', 'google_maps_api_token']);
    assert.match(text, /^\{"data":\{"type":"site","id":"[^"]+","attributes":\{"name":/);
  });

  test('a validator compiled on the first request refuses bad input on that request and after', async () => {
    const invalid = { data: { type: 'item_type', attributes: { name: 5, api_key: 'first' } } };
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await server.request('POST', '/item-types', invalid);
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.deepEqual(errorCodesOf(refused.body), ['INVALID_FORMAT']);
    }
    const client = server.client();
    assert.deepEqual(await client.itemTypes.list(), [], 'nothing was created');
    const created = await client.itemTypes.create({ name: 'First', api_key: 'first' });
    assert.equal(created.api_key, 'first');
  });
});
