import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiError } from '../support/api-errors.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

test('concurrent promotes end with exactly one primary', async () => {
  const admin = server.client();
  await admin.environments.fork('main', { id: 'left' });
  await admin.environments.fork('main', { id: 'right' });
  const results = await Promise.allSettled([
    admin.environments.promote('left'),
    admin.environments.promote('right'),
    admin.environments.promote('left'),
  ]);
  for (const result of results) {
    if (result.status === 'rejected') {
      assert.ok(apiError(result.reason).findError('ALREADY_PRIMARY_ENVIRONMENT'));
    }
  }
  const primaries = (await admin.environments.list()).filter((env) => env.meta.primary);
  assert.equal(primaries.length, 1);
  assert.ok(['left', 'right'].includes(primaries[0]?.id ?? ''));
});

test('a destroy racing writes into that environment: clean errors, nothing lost elsewhere', async () => {
  const admin = server.client();
  const primary = (await admin.environments.list()).find((env) => env.meta.primary);
  assert.ok(primary);
  await admin.environments.fork(primary.id, { id: 'doomed' });
  const doomed = server.client({ environment: 'doomed' });
  const writes = Array.from({ length: 12 }, (_, i) =>
    doomed.itemTypes.create({
      name: `Doomed ${i}`,
      api_key: `doomed_${String.fromCharCode(97 + i)}`,
    }),
  );
  const elsewhere = Array.from({ length: 6 }, (_, i) =>
    admin.itemTypes.create({ name: `Kept ${i}`, api_key: `kept_${String.fromCharCode(97 + i)}` }),
  );
  const destroy = admin.environments.destroy('doomed');
  const results = await Promise.allSettled([...writes, ...elsewhere, destroy]);
  for (const result of results) {
    if (result.status === 'rejected') {
      const error = apiError(result.reason);
      assert.ok(error.response.status < 500, `a clean 4xx, got ${error.response.status}`);
      assert.ok(error.findError('INVALID_ENVIRONMENT'), JSON.stringify(error.errors));
    }
  }
  assert.equal(results.at(-1)?.status, 'fulfilled', 'the destroy succeeds');
  const kept = (await admin.itemTypes.list()).filter((model) => model.api_key.startsWith('kept_'));
  assert.equal(kept.length, 6, 'every write to the primary is there');
  assert.ok(!(await admin.environments.list()).some((env) => env.id === 'doomed'));
});
