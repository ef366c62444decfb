import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildModel } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// The suite-server helper every test file stands on: its handle is usable in
// declarations, its clients wait for the server, and the suite's end closes it.

const server = useTestServer();
const client = server.client();
let earlyRead: unknown;
try {
  earlyRead = server.db;
} catch (error) {
  earlyRead = error;
}

// Node 20 runs a file's top-level before hooks together: this one starts while the
// server may still be starting, and its client call waits instead of failing.
let modelFromHook: string;
before(async () => {
  modelFromHook = (await buildModel(client)).id;
});

test('a client built at module level reaches the server once it runs', async () => {
  const models = await client.itemTypes.list();
  assert.deepEqual(
    models.map((model) => model.id),
    [modelFromHook],
  );
  assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
});

test('db, config and baseUrl are refused until the server runs', () => {
  assert.ok(earlyRead instanceof Error);
  assert.match(earlyRead.message, /has not started yet/);
});

test('request and clients with their own token and environment go to the same server', async () => {
  const listed = await server.request('GET', '/item-types');
  assert.equal(listed.status, 200);
  assert.equal((listed.body as { data: unknown[] }).data.length, 1);
  await server.client().environments.fork('main', { id: 'copy' });
  const copy = server.client({ environment: 'copy' });
  assert.equal((await copy.itemTypes.list()).length, 1);
  await assert.rejects(server.client({ apiToken: 'not-a-token' }).itemTypes.list(), {
    message: /401/,
  });
});

let innerUrl = '';
describe('a describe has its own server', () => {
  const inner = useTestServer();

  test('apart from the file’s, and closed when the describe ends', async () => {
    innerUrl = inner.baseUrl;
    assert.notEqual(innerUrl, server.baseUrl);
    assert.deepEqual(await inner.client().itemTypes.list(), []);
  });
});

test('the describe’s server stopped with its suite', async () => {
  assert.notEqual(innerUrl, '');
  await assert.rejects(fetch(`${innerUrl}/item-types`));
});
