import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  attemptsOf,
  eventually,
  findCall,
  insertEvent,
  insertWebhook,
  openWorkerDatabase,
  queueCall,
  settledCall,
} from '../support/delivery-fixtures.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

let env: Awaited<ReturnType<typeof openWorkerDatabase>>;
let receiver: Receiver;

before(async () => {
  env = await openWorkerDatabase();
  receiver = await startReceiver();
  env.startWorker();
});

after(async () => {
  await env.close();
  await receiver.close();
});

/** Requests the receiver got for one call, by the path the test gave its webhook. */
function requestsTo(path: string) {
  return receiver.requests.filter((request) => request.path.startsWith(path));
}

test('default payload and headers, custom headers override case-insensitively, basic auth wins', async () => {
  const webhookId = await insertWebhook(env.db, {
    url: `${receiver.url}/default`,
    headers: { 'X-Foo': 'Bar', 'content-type': 'application/vnd.custom+json', authorization: 'x' },
    http_basic_user: 'user',
    http_basic_password: 'sécret:pass',
  });
  const event = await insertEvent(env.db, {}, 'update');
  const callId = await queueCall(env.db, webhookId, event.id);
  const call = await settledCall(env.db, callId, 'success');
  const [request] = requestsTo('/default');
  assert.ok(request);
  assert.equal(request.method, 'POST');
  assert.equal(request.headers.accept, '*/*');
  assert.equal(request.headers['user-agent'], 'DatoCMS (datocms.com)');
  assert.equal(request.headers['content-type'], 'application/vnd.custom+json');
  assert.equal(request.headers['x-foo'], 'Bar');
  assert.equal(
    request.headers.authorization,
    `Basic ${Buffer.from('user:sécret:pass').toString('base64')}`,
  );
  const body = JSON.parse(request.body);
  const site = await env.db.selectFrom('site').select('id').executeTakeFirstOrThrow();
  assert.deepEqual(Object.keys(body), [
    'webhook_call_id',
    'event_triggered_at',
    'attempted_auto_retries_count',
    'webhook_id',
    'site_id',
    'environment',
    'is_environment_primary',
    'entity_type',
    'event_type',
    'entity',
    'previous_entity',
    'related_entities',
  ]);
  assert.equal(body.webhook_call_id, callId);
  assert.match(body.event_triggered_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(body.attempted_auto_retries_count, 0);
  assert.equal(body.webhook_id, webhookId);
  assert.equal(body.site_id, String(site.id));
  assert.equal(body.environment, 'main');
  assert.equal(body.is_environment_primary, true);
  assert.equal(body.entity_type, 'item_type');
  assert.equal(body.event_type, 'update');
  assert.deepEqual(body.entity, event.entity);
  assert.deepEqual(body.previous_entity, event.entity);
  assert.deepEqual(body.related_entities, []);

  // The log keeps what was sent, with the credentials masked, and what came back.
  assert.equal(call.request_url, `${receiver.url}/default`);
  assert.equal(call.request_payload, request.body);
  assert.equal(call.request_headers?.Authorization, 'Basic [FILTERED]');
  assert.equal(call.request_headers?.['X-Foo'], 'Bar');
  assert.equal(call.response_status, 200);
  assert.equal(call.response_payload, 'ok');
  assert.equal(typeof call.response_headers?.date, 'string');
  assert.ok(call.last_sent_at instanceof Date);
  assert.equal(call.next_retry_at, null);
  assert.equal(call.due_at, null);
  const attempts = await attemptsOf(env.db, callId);
  assert.equal(attempts.length, 1);
  assert.equal(attempts[0]?.outcome, 'success');
  assert.equal(attempts[0]?.response_status, 200);
  assert.equal(attempts[0]?.manual, false);
});

test('a custom payload renders to valid JSON whatever the values hold; the url is rendered too', async () => {
  const tricky = 'He said "hi" \\ C:\\path\n\ttab \u0001\u001f </script> a/b & c=d ünï €😀 \u2028';
  const webhookId = await insertWebhook(env.db, {
    url: `${receiver.url}/render/{{entity.attributes.api_key}}/{{entity.attributes.name}}?e={{event_type}}`,
    custom_payload:
      '{"name": "{{entity.attributes.name}}", "id": "{{#entity}}{{id}}{{/entity}}", "count": {{entity.attributes.count}}, "flag": {{{entity.attributes.flag}}}, "message": "{{event_type}} event triggered on {{entity_type}}!", "retries": {{attempted_auto_retries_count}}}',
  });
  const event = await insertEvent(env.db, { name: tricky, count: 42, flag: true });
  const callId = await queueCall(env.db, webhookId, event.id);
  await settledCall(env.db, callId, 'success');
  const [request] = requestsTo('/render/');
  assert.ok(request);
  assert.deepEqual(JSON.parse(request.body), {
    name: tricky,
    id: 'AbCdEf123',
    count: 42,
    flag: true,
    message: 'create event triggered on item_type!',
    retries: 0,
  });
  assert.equal(request.path, `/render/blog_post/${encodeURIComponent(tricky)}?e=create`);
  // Default Content-Type stays JSON for a custom payload.
  assert.equal(request.headers['content-type'], 'application/json');
});

test('with a signing secret, deliveries carry Standard Webhooks headers that verify', async () => {
  const secret = `whsec_${Buffer.from('a 24-byte signing key!!!').toString('base64')}`;
  const webhookId = await insertWebhook(env.db, {
    url: `${receiver.url}/signed`,
    signing_secret: secret,
  });
  const event = await insertEvent(env.db);
  const callId = await queueCall(env.db, webhookId, event.id);
  await settledCall(env.db, callId, 'success');
  const [request] = requestsTo('/signed');
  assert.ok(request);
  assert.equal(request.headers['webhook-id'], `msg_${callId}`);
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  const verified = new Webhook(secret).verify(request.body, headers) as Record<string, unknown>;
  assert.equal(verified.webhook_call_id, callId);
  // A tampered body or another key does not verify.
  assert.throws(() => new Webhook(secret).verify(`${request.body} `, headers));
  const otherKey = `whsec_${Buffer.from('another 24-byte key!!!!!').toString('base64')}`;
  assert.throws(() => new Webhook(otherKey).verify(request.body, headers));
  // Unsigned webhooks carry none of these headers.
  assert.ok(requestsTo('/default').every((r) => r.headers['webhook-signature'] === undefined));
});

test('failed deliveries are retried on the schedule with current settings, each attempt logged', async () => {
  let answers = 0;
  const previous = receiver.reply;
  receiver.reply = (request) =>
    request.path.startsWith('/retry')
      ? { status: 500, body: `nope ${++answers}` }
      : previous(request);
  const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/retry`, auto_retry: true });
  const event = await insertEvent(env.db);
  const callId = await queueCall(env.db, webhookId, event.id);

  const first = await settledCall(env.db, callId, 'rescheduled');
  assert.equal(first.attempted_auto_retries_count, 0);
  assert.equal(first.response_status, 500);
  assert.equal(first.response_payload, 'nope 1');
  assert.ok(first.next_retry_at && first.last_sent_at);
  const delay = first.next_retry_at.getTime() - first.last_sent_at.getTime();
  assert.ok(delay >= 1000 && delay < 1200, `retry planned ${delay} ms later`);
  // The retry uses the webhook's settings at retry time.
  await env.db
    .updateTable('webhooks')
    .set({ headers: JSON.stringify({ 'X-Changed': 'yes' }) })
    .where('id', '=', webhookId)
    .execute();

  const final = await settledCall(env.db, callId, 'failed', 15_000);
  assert.equal(final.attempted_auto_retries_count, 2);
  assert.equal(final.next_retry_at, null);
  assert.equal(final.due_at, null);
  const requests = requestsTo('/retry');
  assert.equal(requests.length, 3);
  assert.deepEqual(
    requests.map((r) => JSON.parse(r.body).attempted_auto_retries_count),
    [0, 1, 2],
  );
  assert.ok(requests.every((r) => JSON.parse(r.body).webhook_call_id === callId));
  assert.equal(requests[0]?.headers['x-changed'], undefined);
  assert.equal(requests[1]?.headers['x-changed'], 'yes');
  for (let i = 1; i < requests.length; i++) {
    const gap = (requests[i]?.receivedAt ?? 0) - (requests[i - 1]?.receivedAt ?? 0);
    assert.ok(gap >= 950, `attempt ${i} came ${gap} ms after the previous one`);
  }
  const attempts = await attemptsOf(env.db, callId);
  assert.deepEqual(
    attempts.map((a) => [a.auto_retry_number, a.outcome, a.response_status, a.manual]),
    [
      [0, 'failed', 500, false],
      [1, 'failed', 500, false],
      [2, 'failed', 500, false],
    ],
  );
  assert.ok(attempts.every((a) => a.error === 'the receiver answered 500'));
  receiver.reply = previous;
});

test('auto_retry false: a single attempt', async () => {
  const previous = receiver.reply;
  receiver.reply = (request) =>
    request.path.startsWith('/once') ? { status: 503 } : previous(request);
  const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/once`, auto_retry: false });
  const event = await insertEvent(env.db);
  const callId = await queueCall(env.db, webhookId, event.id);
  const call = await settledCall(env.db, callId, 'failed');
  assert.equal(call.next_retry_at, null);
  assert.equal(call.response_status, 503);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(requestsTo('/once').length, 1);
  assert.equal((await attemptsOf(env.db, callId)).length, 1);
  receiver.reply = previous;
});

test('redirects are not followed: a 3xx is a failed attempt', async () => {
  const previous = receiver.reply;
  receiver.reply = (request) =>
    request.path.startsWith('/moved')
      ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } }
      : previous(request);
  const webhookId = await insertWebhook(env.db, {
    url: `${receiver.url}/moved`,
    auto_retry: false,
  });
  const event = await insertEvent(env.db);
  const callId = await queueCall(env.db, webhookId, event.id);
  const call = await settledCall(env.db, callId, 'failed');
  assert.equal(call.response_status, 302);
  assert.equal(call.response_headers?.location, `${receiver.url}/elsewhere`);
  assert.equal(requestsTo('/elsewhere').length, 0);
  receiver.reply = previous;
});

test('a success after failures ends the retries; the response body is kept up to 64 KiB', async () => {
  let count = 0;
  const previous = receiver.reply;
  receiver.reply = (request) => {
    if (!request.path.startsWith('/flaky')) return previous(request);
    count += 1;
    return count === 1 ? { status: 500 } : { status: 200, body: 'x'.repeat(100_000) };
  };
  const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/flaky` });
  const event = await insertEvent(env.db);
  const callId = await queueCall(env.db, webhookId, event.id);
  const call = await settledCall(env.db, callId, 'success', 15_000);
  assert.equal(call.attempted_auto_retries_count, 1);
  assert.equal(call.response_payload?.length, 64 * 1024);
  assert.equal(call.next_retry_at, null);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(requestsTo('/flaky').length, 2);
  receiver.reply = previous;
});

test("a disabled webhook's queued calls are not sent: they fail with the reason logged", async () => {
  const webhookId = await insertWebhook(env.db, {
    url: `${receiver.url}/disabled`,
    enabled: false,
  });
  const event = await insertEvent(env.db);
  const callId = await queueCall(env.db, webhookId, event.id);
  const call = await settledCall(env.db, callId, 'failed');
  assert.equal(call.next_retry_at, null);
  assert.equal(requestsTo('/disabled').length, 0);
  const [attempt] = await attemptsOf(env.db, callId);
  assert.match(attempt?.error ?? '', /disabled/);
});

test('resends: a failed one keeps the planned retry, a successful one stops the retries', async () => {
  let succeed = false;
  const previous = receiver.reply;
  receiver.reply = (request) =>
    request.path.startsWith('/resend') ? { status: succeed ? 200 : 500 } : previous(request);
  const webhookId = await insertWebhook(env.db, { url: `${receiver.url}/resend` });
  const event = await insertEvent(env.db);
  const callId = await queueCall(env.db, webhookId, event.id);
  const first = await settledCall(env.db, callId, 'rescheduled');
  // Plan the next auto-retry far away, then resend as the API does.
  const planned = new Date(Date.now() + 3_600_000);
  await env.db
    .updateTable('webhook_calls')
    .set({ next_retry_at: planned, due_at: planned })
    .where('id', '=', callId)
    .execute();
  const resend = () =>
    env.db
      .updateTable('webhook_calls')
      .set({ status: 'pending', manual_resend: true, due_at: new Date() })
      .where('id', '=', callId)
      .execute();
  await resend();
  const afterFailedResend = await eventuallyAttempts(callId, 2);
  const call = await findCall(env.db, callId);
  assert.equal(call.status, 'rescheduled');
  assert.equal(call.attempted_auto_retries_count, first.attempted_auto_retries_count);
  assert.equal(call.next_retry_at?.getTime(), planned.getTime());
  assert.equal(call.manual_resend, false);
  assert.equal(afterFailedResend[1]?.manual, true);
  assert.equal(JSON.parse(requestsTo('/resend')[1]?.body ?? '{}').attempted_auto_retries_count, 0);

  succeed = true;
  await resend();
  await eventuallyAttempts(callId, 3);
  const done = await findCall(env.db, callId);
  assert.equal(done.status, 'success');
  assert.equal(done.next_retry_at, null);
  assert.equal(done.due_at, null);
  receiver.reply = previous;
});

function eventuallyAttempts(callId: string, count: number) {
  return eventually(async () => {
    const attempts = await attemptsOf(env.db, callId);
    return attempts.length >= count && attempts;
  });
}
