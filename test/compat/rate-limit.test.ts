import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildClient } from '@datocms/cma-client-node';
import { startServer } from '../../src/server.ts';
import { TEST_ENGINE } from '../support/databases.ts';
import { ADMIN_TOKEN, useTestServer } from '../support/server.ts';

const LIMIT = { limit: 5, windowSeconds: 2 };

const server = useTestServer({ rateLimit: LIMIT });

/** Waits for the start of a fresh window, so a test's count starts from zero. */
async function nextWindow(): Promise<void> {
  const windowMs = LIMIT.windowSeconds * 1000;
  await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 20));
}

describe('per-token rate limiting', () => {
  test('headers count down, then 429 with X-RateLimit-Reset', async () => {
    await nextWindow();
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT.limit; i++) {
      const response = await server.request('GET', '/item-types');
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), '5');
      remaining.push(response.headers.get('x-ratelimit-remaining') ?? '');
    }
    assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
    const throttled = await server.request('GET', '/item-types');
    assert.equal(throttled.status, 429);
    assert.match(throttled.headers.get('content-type') ?? '', /application\/json/);
    const reset = Number(throttled.headers.get('x-ratelimit-reset'));
    assert.ok(reset >= 1 && reset <= LIMIT.windowSeconds, `reset ${reset}`);
    assert.equal(
      (throttled.body as { data: { attributes: { code: string } }[] }).data[0]?.attributes.code,
      'RATE_LIMIT_EXCEEDED',
    );
    const probe = await fetch(`${server.baseUrl}/healthz`);
    assert.equal(probe.status, 200, 'probes carry no token and are never limited');
  });

  test('the official client backs off on 429 and completes every call', async () => {
    await nextWindow();
    const client = buildClient({ apiToken: ADMIN_TOKEN, baseUrl: server.baseUrl });
    const started = Date.now();
    const created = [];
    for (let i = 0; i < 12; i++) {
      created.push(await client.itemTypes.create({ name: `Model ${i}`, api_key: `model${i}` }));
    }
    assert.equal(created.length, 12);
    assert.equal((await client.itemTypes.list()).length, 12);
    assert.ok(Date.now() - started >= 2000, 'it had to wait for two new windows');
  });

  test('each token has its own budget', async () => {
    await nextWindow();
    const client = server.client();
    const role = (await client.roles.list())[0];
    assert.ok(role);
    const other = await client.accessTokens.create({
      name: 'second token',
      can_access_cda: false,
      can_access_cda_preview: false,
      can_access_cma: true,
      role: { type: 'role', id: role.id },
    });
    for (let i = 0; i <= LIMIT.limit; i++) await server.request('GET', '/item-types');
    const response = await server.request('GET', '/item-types', undefined, {
      authorization: `Bearer ${other.token}`,
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-ratelimit-remaining'), '4');
  });

  test(`the budget is shared by every API process on one database (${TEST_ENGINE})`, async () => {
    if (TEST_ENGINE === 'embedded') {
      // One process owns an embedded data directory: a second is refused, so the one
      // process's count is the whole count (the lock is tested in test/integration/cli).
      await nextWindow();
      for (let i = 0; i < LIMIT.limit; i++) await server.request('GET', '/item-types');
      assert.equal((await server.request('GET', '/item-types')).status, 429);
      return;
    }
    const second = await startServer({ ...server.config, port: 0 });
    try {
      const secondUrl = second.url.replace('[::1]', '127.0.0.1');
      await nextWindow();
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT.limit + 1; i++) {
        const base = i % 2 === 0 ? server.baseUrl : secondUrl;
        const response = await fetch(`${base}/item-types`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'application/json' },
        });
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    } finally {
      await second.close();
    }
  });
});
