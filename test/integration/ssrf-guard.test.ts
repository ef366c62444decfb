import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  attemptsOf,
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
  env = await openWorkerDatabase({ webhookAllow: [] });
  receiver = await startReceiver();
});

after(async () => {
  await env.close();
  await receiver.close();
});

async function deliverOnce(url: string) {
  const webhookId = await insertWebhook(env.db, { url, auto_retry: false });
  const event = await insertEvent(env.db);
  const callId = await queueCall(env.db, webhookId, event.id);
  return callId;
}

test('without an allowlist, private, loopback, link-local and metadata targets are refused', async () => {
  const worker = env.startWorker({ config: { ...env.config, webhookAllow: [] } });
  const port = receiver.port;
  const cases: [string, RegExp][] = [
    [`http://127.0.0.1:${port}/a`, /127\.0\.0\.1 is a loopback address/],
    [`http://localhost:${port}/b`, /refused to connect to localhost: .* loopback address/],
    [`http://[::ffff:127.0.0.1]:${port}/c`, /loopback address/],
    [`http://[::1]:${port}/d`, /::1 is a loopback address/],
    ['http://169.254.169.254/latest/meta-data', /link-local \(cloud metadata\) address/],
    ['http://[fd00:ec2::254]/latest', /unique-local \(private\) address/],
    ['http://10.1.2.3/', /private address/],
    ['http://100.64.0.1/', /carrier-grade NAT address/],
    ['http://0.0.0.0/', /unspecified address/],
    // IPv6 forms that carry a refused IPv4 address (new URL() writes the tail in hex)
    [`http://[::127.0.0.1]:${port}/e`, /::7f00:1 is an IPv4-compatible .* loopback address/],
    ['http://[::169.254.169.254]/latest', /::a9fe:a9fe .* link-local \(cloud metadata\) address/],
    [`http://[::ffff:0:127.0.0.1]:${port}/f`, /IPv4-translated .* loopback address/],
    [`http://[64:ff9b::127.0.0.1]:${port}/g`, /NAT64 .* loopback address/],
    [`http://[64:ff9b:1::a9fe:a9fe]/h`, /local-use NAT64 address/],
    [`http://[2002:7f00:1::1]:${port}/i`, /6to4 .* loopback address/],
    [`http://[2001:0:808:808::80ff:fffe]:${port}/j`, /Teredo .* loopback address/],
  ];
  for (const [url, expected] of cases) {
    const callId = await deliverOnce(url);
    const call = await settledCall(env.db, callId, 'failed');
    assert.equal(call.response_status, null, url);
    assert.equal(call.request_url, url);
    const [attempt] = await attemptsOf(env.db, callId);
    assert.match(attempt?.error ?? '', expected, url);
    assert.match(attempt?.error ?? '', /FIELDHOUSE_WEBHOOK_ALLOW/);
  }
  assert.equal(receiver.requests.length, 0);
  await worker.stop();
});

test('an allowlisted range is reached', async () => {
  const worker = env.startWorker({ config: { ...env.config, webhookAllow: ['127.0.0.0/8'] } });
  const callId = await deliverOnce(`${receiver.url}/allowed`);
  await settledCall(env.db, callId, 'success');
  assert.equal(receiver.requests.length, 1);
  assert.equal(receiver.requests[0]?.path, '/allowed');
  await worker.stop();
});
