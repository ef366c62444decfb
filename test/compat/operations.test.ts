import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

/** A probe as an orchestrator sends it: no token, no API headers. */
async function probe(path: string): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(`${server.baseUrl}${path}`);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: await response.text(),
  };
}

describe('operations endpoints', () => {
  test('liveness and readiness answer without a token', async () => {
    const live = await probe('/healthz');
    assert.equal(live.status, 200);
    assert.match(live.type, /application\/json/);
    const ready = await probe('/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(JSON.parse(ready.body), { data: { type: 'health', id: 'ready' } });
  });

  test('readiness fails, transient, while a migration is not applied', async () => {
    const [latest] = (
      await sql<{ name: string }>`
        SELECT name FROM fieldhouse_migrations ORDER BY name DESC LIMIT 1
      `.execute(server.db)
    ).rows;
    assert.ok(latest);
    await sql`DELETE FROM fieldhouse_migrations WHERE name = ${latest.name}`.execute(server.db);
    try {
      const ready = await probe('/readyz');
      assert.equal(ready.status, 503);
      const error = JSON.parse(ready.body).data[0].attributes;
      assert.equal(error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(error.transient, true);
      assert.deepEqual(error.details.pending, [latest.name]);
    } finally {
      await sql`
        INSERT INTO fieldhouse_migrations (name, timestamp) VALUES (${latest.name}, now()::text)
      `.execute(server.db);
    }
    assert.equal((await probe('/readyz')).status, 200);
  });

  test('metrics expose request latency by route and status, and the delivery queue', async () => {
    const client = server.client();
    await client.itemTypes.create({ name: 'Metered', api_key: 'metered' });
    await client.itemTypes.find('nope').catch(() => undefined);
    const metrics = await probe('/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.type, /text\/plain/);
    assert.match(
      metrics.body,
      /fieldhouse_http_request_duration_seconds_count\{method="POST",route="\/item-types",status="201"\} 1/,
    );
    assert.match(
      metrics.body,
      /fieldhouse_http_request_duration_seconds_count\{method="GET",route="\/item-types\/:id",status="404"\} 1/,
    );
    assert.match(metrics.body, /fieldhouse_webhook_queue_depth \d+/);
    assert.match(metrics.body, /fieldhouse_webhook_queue_oldest_due_seconds [\d.]+/);
  });
});
