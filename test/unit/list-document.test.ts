import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { sendListDocument } from '../../src/http/list-document.ts';

/** A list route answering `count` resources of `size` characters each. */
async function listOf(count: number, size: number) {
  const app = Fastify();
  const data = Array.from({ length: count }, (_, i) => ({ id: String(i), text: 'x'.repeat(size) }));
  app.get('/', (_request, reply) =>
    sendListDocument(reply, [...data], { meta: { total_count: count } }),
  );
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return { response, data };
}

test('a small list is one string, sent with its length', async () => {
  const { response, data } = await listOf(3, 10);
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(response.headers['content-length'], String(response.rawPayload.length));
  assert.equal(response.headers['transfer-encoding'], undefined);
  assert.deepEqual(response.json(), { data, meta: { total_count: 3 } });
});

test('a large list is streamed in pieces, and reads back as the same document', async () => {
  const { response, data } = await listOf(200, 1_000);
  assert.equal(response.headers['content-length'], undefined);
  assert.equal(response.headers['transfer-encoding'], 'chunked');
  assert.deepEqual(response.json(), { data, meta: { total_count: 200 } });
});

test('an empty list is a document too', async () => {
  const { response } = await listOf(0, 0);
  assert.deepEqual(response.json(), { data: [], meta: { total_count: 0 } });
});
