import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '@datocms/cma-client-node';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

describe('environments through the official client', () => {
  test('a project has the one primary environment "main"', async () => {
    const client = server.client();
    const list = await client.environments.list();
    assert.equal(list.length, 1);
    const main = await client.environments.find('main');
    assert.deepEqual(list[0], main);
    assert.equal(main.id, 'main');
    assert.equal(main.type, 'environment');
    assert.equal(main.meta.status, 'ready');
    assert.equal(main.meta.read_only_mode, false);
    assert.equal(main.meta.primary, true);
    assert.equal(main.meta.forked_from, null);
    assert.ok(!Number.isNaN(Date.parse(main.meta.created_at)));
    assert.ok(!Number.isNaN(Date.parse(main.meta.last_data_change_at)));
  });

  test('the document carries only type, id and meta', async () => {
    const response = await server.request('GET', '/environments/main');
    assert.equal(response.status, 200);
    const data = (response.body as { data: Record<string, unknown> }).data;
    assert.deepEqual(Object.keys(data).sort(), ['id', 'meta', 'type']);
  });

  test('an unknown environment is NOT_FOUND', async () => {
    await assert.rejects(server.client().environments.find('staging'), (error) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.response.status, 404);
      assert.ok(error.findError('NOT_FOUND'));
      return true;
    });
  });
});
