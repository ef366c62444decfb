import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  attemptsOf,
  eventually,
  insertWebhook,
  LOOPBACK,
  queueEventCall,
  settledCall,
} from '../support/delivery-fixtures.ts';
import { startReceiver } from '../support/receiver.ts';
import { startTestServer } from '../support/server.ts';

test('the server runs a delivery worker and stops it on close', async () => {
  const receiver = await startReceiver();
  const server = await startTestServer({ webhookAllow: LOOPBACK });
  try {
    const webhookId = await insertWebhook(server.db, { url: `${receiver.url}/served` });
    const callId = await queueEventCall(server.db, webhookId);
    await settledCall(server.db, callId, 'success');
    const [request] = await receiver.waitForRequests(1);
    assert.equal(request?.path, '/served');
    const metrics = await fetch(`${server.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    assert.match(
      await metrics.text(),
      /fieldhouse_webhook_deliveries_total\{outcome="success"\} 1/,
    );
  } finally {
    await server.close();
    await receiver.close();
  }
});

test('end to end through the official client: a model change is delivered, logged and resent', async () => {
  const receiver = await startReceiver();
  const server = await startTestServer({ webhookAllow: LOOPBACK });
  try {
    const client = server.client();
    const webhook = await client.webhooks.create({
      name: 'Models',
      url: `${receiver.url}/models/{{event_type}}`,
      custom_payload: '{"model": "{{entity.attributes.name}}", "event": "{{event_type}}"}',
      headers: { 'X-Team': 'content' },
      events: [{ entity_type: 'item_type', event_types: ['create', 'update'] }],
      http_basic_user: 'hook',
      http_basic_password: 'secret',
      enabled: true,
      payload_api_version: '3',
      nested_items_in_payload: false,
      auto_retry: true,
    });
    await client.itemTypes.create({ name: 'Say "hi" / <b>&</b>', api_key: 'greeting' });
    const [request] = await receiver.waitForRequests(1);
    assert.equal(request?.path, '/models/create');
    assert.deepEqual(JSON.parse(request?.body ?? ''), {
      model: 'Say "hi" / <b>&</b>',
      event: 'create',
    });
    assert.equal(request?.headers['x-team'], 'content');
    assert.equal(request?.headers.authorization, `Basic ${btoa('hook:secret')}`);
    const [call] = await client.webhookCalls.list({
      filter: { fields: { webhook_id: { eq: webhook.id } } },
    });
    assert.ok(call);
    const logged = await settledCall(server.db, call.id, 'success');
    assert.equal(logged.request_headers?.Authorization, 'Basic [FILTERED]');
    await client.webhookCalls.resendWebhook(call.id);
    await receiver.waitForRequests(2);
    const attempts = await eventually(async () => {
      const rows = await attemptsOf(server.db, call.id);
      return rows.length === 2 && rows;
    });
    assert.deepEqual(
      attempts.map((a) => [a.manual, a.outcome]),
      [
        [false, 'success'],
        [true, 'success'],
      ],
    );
    assert.equal((await client.webhookCalls.find(call.id)).status, 'success');
  } finally {
    await server.close();
    await receiver.close();
  }
});
