import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import {
  apiError,
  errorCodesOf,
  rejectsWithApiError,
  rejectsWithMessage,
} from '../support/api-errors.ts';
import { webhookBody } from '../support/factories.ts';
import { tokenWithFlags, tokenWithRole } from '../support/limited-token.ts';
import { requestRoundTripsOf } from '../support/round-trips.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

type CreateBody = Parameters<Client['webhooks']['create']>[0];

const ATTRIBUTE_NAMES = [
  'auto_retry',
  'custom_payload',
  'enabled',
  'events',
  'headers',
  'http_basic_password',
  'http_basic_user',
  'name',
  'nested_items_in_payload',
  'payload_api_version',
  'url',
];

async function rejectsField(call: Promise<unknown>, field: string, code: string): Promise<void> {
  await rejectsWithApiError(call, 'INVALID_FIELD', { field, code, record_type: 'Webhook' });
}

describe('webhooks through the official client', () => {
  test('create with every attribute, then find, list and destroy', async () => {
    const events: CreateBody['events'] = [
      {
        entity_type: 'item_type',
        event_types: ['create', 'update'],
        filters: [{ entity_type: 'item_type', entity_ids: ['blog_post', 'tag'] }],
      },
      { entity_type: 'item', event_types: ['publish'], filters: null },
    ];
    const created = await client.webhooks.create({
      name: 'Everything',
      url: 'https://hooks.example.com/{{event_type}}?site={{site_id}}',
      custom_payload: '{"type": "{{event_type}}", "id": "{{#entity}}{{id}}{{/entity}}"}',
      headers: { 'X-Foo': 'Bar', Authorization: 'Bearer abc' },
      events,
      http_basic_user: 'user',
      http_basic_password: 'secret',
      enabled: false,
      payload_api_version: '2',
      nested_items_in_payload: true,
      auto_retry: false,
    });
    assert.match(created.id, /^\d+$/);
    assert.equal(created.type, 'webhook');
    assert.deepEqual(Object.keys(created).sort(), ['id', 'type', ...ATTRIBUTE_NAMES].sort());
    assert.equal(created.name, 'Everything');
    assert.equal(created.url, 'https://hooks.example.com/{{event_type}}?site={{site_id}}');
    assert.deepEqual(created.headers, { 'X-Foo': 'Bar', Authorization: 'Bearer abc' });
    assert.deepEqual(created.events, events);
    assert.equal(created.http_basic_user, 'user');
    assert.equal(created.http_basic_password, 'secret');
    assert.equal(created.enabled, false);
    assert.equal(created.payload_api_version, '2');
    assert.equal(created.nested_items_in_payload, true);
    assert.equal(created.auto_retry, false);

    assert.deepEqual(await client.webhooks.find(created.id), created);
    assert.ok((await client.webhooks.list()).some((webhook) => webhook.id === created.id));

    const destroyed = await server.request('DELETE', `/webhooks/${created.id}`);
    assert.equal(destroyed.status, 200);
    const document = destroyed.body as { data: Record<string, unknown> };
    assert.equal(document.data.id, created.id);
    assert.equal((document.data.attributes as { name: string }).name, 'Everything');
    assert.equal(document.data.relationships, undefined, 'webhooks have no relationships');
    await rejectsWithApiError(client.webhooks.find(created.id), 'NOT_FOUND');
  });

  test('create answers 201 and fills the optional attributes with their defaults', async () => {
    const response = await server.request('POST', '/webhooks', {
      data: { type: 'webhook', attributes: webhookBody({ name: 'Defaults' }) },
    });
    assert.equal(response.status, 201);
    const { attributes } = (response.body as { data: { attributes: Record<string, unknown> } })
      .data;
    assert.equal(attributes.enabled, true);
    assert.equal(attributes.payload_api_version, '3');
    assert.equal(attributes.nested_items_in_payload, false);
    assert.equal(attributes.auto_retry, true);
    assert.deepEqual(Object.keys(attributes).sort(), ATTRIBUTE_NAMES);
  });

  test('list returns every webhook in creation order', async () => {
    const first = await client.webhooks.create(webhookBody());
    const second = await client.webhooks.create(webhookBody());
    const ids = (await client.webhooks.list()).map((webhook) => webhook.id);
    assert.ok(ids.indexOf(first.id) < ids.indexOf(second.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => Number(a) - Number(b)),
    );
  });

  test('an empty update changes nothing; a partial one changes only what it names', async () => {
    const created = await client.webhooks.create(
      webhookBody({
        custom_payload: '{{event_type}}',
        headers: { 'X-One': '1' },
        events: [{ entity_type: 'item_type', event_types: ['create'] }],
        http_basic_user: 'u',
        http_basic_password: 'p',
      }),
    );
    const { id, type, ...unchanged } = created;
    assert.deepEqual(await client.webhooks.update(id, {}), created);
    const raw = await server.request('PUT', `/webhooks/${id}`, { data: { type, id } });
    assert.equal(raw.status, 200);
    assert.deepEqual(await client.webhooks.find(id), created);

    const renamed = await client.webhooks.update(id, { name: `${unchanged.name} renamed` });
    assert.deepEqual(renamed, { ...created, name: `${unchanged.name} renamed` });

    const replaced = await client.webhooks.update(id, {
      headers: { 'X-Two': '2' },
      events: [{ entity_type: 'item_type', event_types: ['delete'], filters: [] }],
      enabled: false,
      auto_retry: false,
      nested_items_in_payload: true,
      payload_api_version: '1',
      url: 'http://example.org/other',
    });
    assert.deepEqual(replaced.headers, { 'X-Two': '2' }, 'headers are replaced, not merged');
    assert.deepEqual(replaced.events, [
      { entity_type: 'item_type', event_types: ['delete'], filters: [] },
    ]);
    assert.equal(replaced.enabled, false);
    assert.equal(replaced.auto_retry, false);
    assert.equal(replaced.nested_items_in_payload, true);
    assert.equal(replaced.payload_api_version, '1');
    assert.equal(replaced.url, 'http://example.org/other');
    assert.equal(replaced.custom_payload, '{{event_type}}');

    const cleared = await client.webhooks.update(id, {
      custom_payload: null,
      http_basic_user: null,
      http_basic_password: null,
    });
    assert.equal(cleared.custom_payload, null);
    assert.equal(cleared.http_basic_user, null);
    assert.equal(cleared.http_basic_password, null);
    assert.deepEqual(cleared.headers, { 'X-Two': '2' });
  });

  test('the legacy single `filter` is accepted and always emitted as `filters`', async () => {
    const created = await client.webhooks.create(
      webhookBody({
        events: [
          {
            entity_type: 'item_type',
            event_types: ['update'],
            filter: { entity_type: 'item_type', entity_ids: ['abc'] },
          } as never,
          { entity_type: 'item_type', event_types: ['delete'], filter: null } as never,
        ],
      }),
    );
    assert.deepEqual(created.events, [
      {
        entity_type: 'item_type',
        event_types: ['update'],
        filters: [{ entity_type: 'item_type', entity_ids: ['abc'] }],
      },
      { entity_type: 'item_type', event_types: ['delete'], filters: null },
    ]);
  });

  test('every filter type is accepted where it applies', async () => {
    const events: CreateBody['events'] = [
      {
        entity_type: 'item',
        event_types: ['create', 'update', 'delete', 'publish', 'unpublish'],
        filters: [
          { entity_type: 'item', entity_ids: ['rec1'] },
          { entity_type: 'item_type', entity_ids: ['article'] },
          { entity_type: 'environment', entity_ids: ['main', 'staging'] },
          { entity_type: 'environment_type', entity_ids: ['primary', 'sandbox'] },
        ],
      },
      {
        entity_type: 'build_trigger',
        event_types: ['deploy_started', 'deploy_succeeded', 'deploy_failed'],
        filters: [{ entity_type: 'build_trigger', entity_ids: ['12'] }],
      },
      { entity_type: 'upload', event_types: ['create', 'update', 'delete'] },
      { entity_type: 'environment', event_types: ['create', 'update', 'promote', 'delete'] },
      { entity_type: 'maintenance_mode', event_types: ['change'] },
      { entity_type: 'sso_user', event_types: ['create'] },
      { entity_type: 'cda_cache_tags', event_types: ['invalidate'] },
    ];
    const created = await client.webhooks.create(webhookBody({ events }));
    assert.deepEqual(
      created.events,
      events.map((event) => ({ ...event, filters: event.filters ?? null })),
    );
  });

  test('name is required and unique', async () => {
    await rejectsField(
      client.webhooks.create(webhookBody({ name: '  ' })),
      'name',
      'VALIDATION_REQUIRED',
    );
    const taken = await client.webhooks.create(webhookBody());
    await rejectsField(
      client.webhooks.create(webhookBody({ name: taken.name })),
      'name',
      'VALIDATION_UNIQUENESS',
    );
    const other = await client.webhooks.create(webhookBody());
    await rejectsField(
      client.webhooks.update(other.id, { name: taken.name }),
      'name',
      'VALIDATION_UNIQUENESS',
    );
    // Keeping its own name is not a clash.
    assert.equal((await client.webhooks.update(taken.id, { name: taken.name })).name, taken.name);
    // The name travels in the update's first statement: quotes, backslashes and SQL are
    // only text.
    const quoted = `It's a "hook" \\ '); DROP TABLE webhooks; --`;
    assert.equal((await client.webhooks.update(taken.id, { name: quoted })).name, quoted);
    await rejectsField(
      client.webhooks.update(other.id, { name: quoted }),
      'name',
      'VALIDATION_UNIQUENESS',
    );
    assert.equal((await client.webhooks.find(other.id)).name, other.name);
  });

  test('an update is one locked read (with the name check) sent with BEGIN, the write, COMMIT', async () => {
    const webhook = await client.webhooks.create(webhookBody());
    const transaction = await requestRoundTripsOf(() =>
      client.webhooks.update(webhook.id, { name: `${webhook.name} renamed`, headers: { A: '1' } }),
    );
    // From its BEGIN: PostgreSQL reads the token before it.
    const begin = transaction.findIndex((text) => text.startsWith('begin'));
    assert.deepEqual(
      transaction.slice(begin).map((text) => text.split(' ').slice(0, 3).join(' ')),
      ['begin; select *,', 'update "webhooks" set', 'commit'],
    );
  });

  test('10 concurrent creates with one name give one webhook and 9 uniqueness errors', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => client.webhooks.create(webhookBody({ name: 'Racer' }))),
    );
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
    for (const result of results) {
      if (result.status === 'rejected') {
        assert.ok(
          apiError(result.reason).findError('INVALID_FIELD', {
            field: 'name',
            code: 'VALIDATION_UNIQUENESS',
          }),
        );
      }
    }
    const racers = (await client.webhooks.list()).filter((webhook) => webhook.name === 'Racer');
    assert.equal(racers.length, 1);
  });

  test('url must be an absolute http(s) URL once its tags render empty', async () => {
    for (const url of [
      'ftp://example.com/x',
      'example.com/hook',
      '/relative',
      'https://',
      '{{host}}/hook',
      'javascript:alert(1)',
      'https://example.com/{{#unclosed}}',
    ]) {
      await rejectsField(client.webhooks.create(webhookBody({ url })), 'url', 'VALIDATION_FORMAT');
    }
    await rejectsField(
      client.webhooks.create(webhookBody({ url: '' })),
      'url',
      'VALIDATION_REQUIRED',
    );
    const templated = await client.webhooks.create(
      webhookBody({ url: 'http://example.com/{{entity_type}}/{{#entity}}{{id}}{{/entity}}' }),
    );
    assert.equal(templated.url, 'http://example.com/{{entity_type}}/{{#entity}}{{id}}{{/entity}}');
  });

  test('custom_payload must be a valid Mustache template', async () => {
    for (const custom_payload of ['{{#entity}}{{id}}', '{"a": "{{event_type"}', '{{/x}}']) {
      await rejectsField(
        client.webhooks.create(webhookBody({ custom_payload })),
        'custom_payload',
        'VALIDATION_INVALID',
      );
    }
    const created = await client.webhooks.create(
      webhookBody({ custom_payload: '{"message": "{{event_type}} on {{entity_type}}!"}' }),
    );
    await rejectsField(
      client.webhooks.update(created.id, { custom_payload: '{{^a}}' }),
      'custom_payload',
      'VALIDATION_INVALID',
    );
    assert.equal(
      (await client.webhooks.find(created.id)).custom_payload,
      '{"message": "{{event_type}} on {{entity_type}}!"}',
      'a refused update changes nothing',
    );
  });

  test('header names must be RFC 7230 tokens and values one-line strings', async () => {
    for (const headers of [
      { 'Bad Header': 'x' },
      { 'X-Colon:': 'x' },
      { '': 'x' },
      { 'X-Number': 5 },
      { 'X-Null': null },
      { 'X-Injected': 'a\r\nX-Evil: 1' },
      { 'X-Twice': 'a', 'x-twice': 'b' },
    ]) {
      await rejectsField(
        client.webhooks.create(webhookBody({ headers: headers as never })),
        'headers',
        'VALIDATION_INVALID',
      );
    }
    const created = await client.webhooks.create(
      webhookBody({ headers: { "X-Token_1.2!#$%&'*+^`|~": 'value with spaces: ok' } }),
    );
    assert.deepEqual(created.headers, { "X-Token_1.2!#$%&'*+^`|~": 'value with spaces: ok' });
  });

  test('events are checked against the matrix and filter rules', async () => {
    const invalid: unknown[] = [
      { entity_type: 'comment', event_types: ['create'] },
      { entity_type: 'item_type', event_types: ['publish'] },
      { entity_type: 'maintenance_mode', event_types: ['create'] },
      { entity_type: 'item_type', event_types: [] },
      { entity_type: 'item_type' },
      { entity_type: 'item_type', event_types: ['create'], extra: true },
      'item_type',
      {
        entity_type: 'item_type',
        event_types: ['create'],
        filters: [{ entity_type: 'item_type', entity_ids: [] }],
      },
      {
        entity_type: 'item_type',
        event_types: ['create'],
        filters: [{ entity_type: 'item', entity_ids: ['x'] }],
      },
      {
        entity_type: 'upload',
        event_types: ['create'],
        filters: [{ entity_type: 'build_trigger', entity_ids: ['x'] }],
      },
      {
        entity_type: 'item_type',
        event_types: ['create'],
        filters: [{ entity_type: 'environment_type', entity_ids: ['production'] }],
      },
      {
        entity_type: 'item_type',
        event_types: ['create'],
        filters: [{ entity_type: 'site', entity_ids: ['x'] }],
      },
      {
        entity_type: 'item_type',
        event_types: ['create'],
        filters: [],
        filter: { entity_type: 'item_type', entity_ids: ['x'] },
      },
      { entity_type: 'item_type', event_types: ['create'], filters: {} },
    ];
    for (const event of invalid) {
      await rejectsField(
        client.webhooks.create(webhookBody({ events: [event as never] })),
        'events',
        'VALIDATION_INVALID',
      );
    }
    const created = await client.webhooks.create(webhookBody());
    assert.deepEqual(created.events, [], 'an empty events list is allowed');
  });

  test('http_basic_user cannot contain a colon; payload_api_version is 1, 2 or 3', async () => {
    await rejectsField(
      client.webhooks.create(webhookBody({ http_basic_user: 'a:b', http_basic_password: 'p' })),
      'http_basic_user',
      'VALIDATION_FORMAT',
    );
    for (const version of ['4', '', 'v3']) {
      await rejectsField(
        client.webhooks.create(webhookBody({ payload_api_version: version })),
        'payload_api_version',
        'VALIDATION_INCLUSION',
      );
    }
  });

  test('several invalid attributes are reported together and nothing is written', async () => {
    const before = (await client.webhooks.list()).length;
    await assert.rejects(
      client.webhooks.create(webhookBody({ name: '', url: 'nope', payload_api_version: '9' })),
      (error) => {
        const fields = apiError(error).errors.map((e) => e.attributes.details.field);
        assert.deepEqual(fields, ['name', 'url', 'payload_api_version']);
        return true;
      },
    );
    assert.equal((await client.webhooks.list()).length, before);
  });

  test('malformed documents are INVALID_FORMAT or INVALID_TYPE', async () => {
    const { name: _name, ...withoutName } = webhookBody();
    const missing = await server.request('POST', '/webhooks', {
      data: { type: 'webhook', attributes: withoutName },
    });
    assert.equal(missing.status, 422);
    assert.deepEqual(errorCodesOf(missing.body), ['INVALID_FORMAT']);

    const { http_basic_password: _password, ...withoutPassword } = webhookBody();
    const missingNullable = await server.request('POST', '/webhooks', {
      data: { type: 'webhook', attributes: withoutPassword },
    });
    assert.deepEqual(errorCodesOf(missingNullable.body), ['INVALID_FORMAT']);

    const withId = await server.request('POST', '/webhooks', {
      data: { type: 'webhook', id: '12', attributes: webhookBody() },
    });
    assert.equal(withId.status, 422);
    assert.deepEqual(errorCodesOf(withId.body), ['INVALID_FORMAT']);

    const unknown = await server.request('POST', '/webhooks', {
      data: { type: 'webhook', attributes: { ...webhookBody(), signing_secret: 'x' } },
    });
    assert.deepEqual(errorCodesOf(unknown.body), ['INVALID_FORMAT']);

    const wrongType = await server.request('POST', '/webhooks', {
      data: { type: 'item_type', attributes: webhookBody() },
    });
    assert.deepEqual(errorCodesOf(wrongType.body), ['INVALID_TYPE']);

    await rejectsWithApiError(
      client.webhooks.create(webhookBody({ enabled: 'yes' as never })),
      'INVALID_FORMAT',
    );
    const created = await client.webhooks.create(webhookBody());
    await rejectsWithApiError(
      client.webhooks.update(created.id, { auto_retry: null as never }),
      'INVALID_FORMAT',
    );
  });

  test('unknown or malformed ids are NOT_FOUND', async () => {
    for (const id of ['999999', 'abc', '1e3', '-1']) {
      await rejectsWithApiError(client.webhooks.find(id), 'NOT_FOUND');
      await rejectsWithApiError(client.webhooks.update(id, { name: 'x' }), 'NOT_FOUND');
      await rejectsWithApiError(client.webhooks.destroy(id), 'NOT_FOUND');
    }
  });

  test('every endpoint needs can_manage_webhooks', async () => {
    const created = await client.webhooks.create(webhookBody());
    const schemaOnly = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_edit_schema']),
    });
    const calls: (() => Promise<unknown>)[] = [
      () => schemaOnly.webhooks.list(),
      () => schemaOnly.webhooks.find(created.id),
      () => schemaOnly.webhooks.create(webhookBody()),
      () => schemaOnly.webhooks.update(created.id, { name: 'x' }),
      () => schemaOnly.webhooks.destroy(created.id),
    ];
    for (const call of calls) await rejectsWithApiError(call(), 'INSUFFICIENT_PERMISSIONS');

    const webhookManager = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_manage_webhooks']),
    });
    assert.equal((await webhookManager.webhooks.find(created.id)).id, created.id);
  });

  test('a role that does not reach every environment manages no webhook: webhooks receive them all', async () => {
    const created = await client.webhooks.create(webhookBody());
    const sandbox = `webhook-roles-${Date.now().toString(36)}`;
    await client.environments.fork('main', { id: sandbox });
    // Each in an environment it may enter: the environment itself is no reason to refuse.
    for (const [access, environment] of [
      ['sandbox_only', sandbox],
      ['primary_only', undefined],
    ] as const) {
      const { token } = await tokenWithRole(server.db, {
        can_manage_webhooks: true,
        environments_access: access,
      });
      const limited = server.client({ apiToken: token, environment });
      const calls: (() => Promise<unknown>)[] = [
        // Its own webhook would receive the records of environments it cannot enter.
        () => limited.webhooks.create(webhookBody({ name: `From ${access}` })),
        () => limited.webhooks.list(),
        () => limited.webhooks.find(created.id),
        () => limited.webhooks.update(created.id, { url: 'https://elsewhere.example/hook' }),
        () => limited.webhooks.destroy(created.id),
        () => limited.webhookCalls.list(),
      ];
      for (const attempt of calls) {
        await rejectsWithMessage(
          attempt(),
          'INSUFFICIENT_PERMISSIONS',
          /environments_access "all"/,
        );
      }
    }
    assert.equal((await client.webhooks.find(created.id)).url, created.url, 'nothing changed');
    assert.equal(
      (await client.webhooks.list()).filter((w) => w.name.startsWith('From ')).length,
      0,
    );
  });
});

describe('signing secrets (Fieldhouse extension)', () => {
  async function storedSecret(id: string): Promise<string | null> {
    const row = await server.db
      .selectFrom('webhooks')
      .select('signing_secret')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.signing_secret;
  }

  test('POST creates and rotates a secret, shown once; the webhook never shows it', async () => {
    const created = await client.webhooks.create(webhookBody());
    assert.equal(await storedSecret(created.id), null, 'signing is off by default');

    const first = await server.request('POST', `/webhooks/${created.id}/signing_secret`);
    assert.equal(first.status, 200);
    const document = first.body as {
      data: { type: string; id: string; attributes: { secret: string } };
    };
    assert.equal(document.data.type, 'webhook_signing_secret');
    assert.equal(document.data.id, created.id);
    const secret = document.data.attributes.secret;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 24);
    assert.equal(await storedSecret(created.id), secret);

    // The secret works with the Standard Webhooks reference library.
    const payload = '{"ok":true}';
    const signer = new StandardWebhook(secret);
    const timestamp = new Date();
    const signature = signer.sign('msg_1', timestamp, payload);
    const verified = signer.verify(payload, {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    });
    assert.deepEqual(verified, { ok: true });

    const found = await server.request('GET', `/webhooks/${created.id}`);
    assert.doesNotMatch(JSON.stringify(found.body), /whsec_|signing/);
    assert.deepEqual(await client.webhooks.find(created.id), created);

    const rotated = await server.request('POST', `/webhooks/${created.id}/signing_secret`);
    const next = (rotated.body as typeof document).data.attributes.secret;
    assert.notEqual(next, secret);
    assert.equal(await storedSecret(created.id), next);
  });

  test('DELETE turns signing off', async () => {
    const created = await client.webhooks.create(webhookBody());
    await server.request('POST', `/webhooks/${created.id}/signing_secret`);
    const removed = await server.request('DELETE', `/webhooks/${created.id}/signing_secret`);
    assert.equal(removed.status, 204);
    assert.equal(await storedSecret(created.id), null);
    // Turning it off twice is harmless.
    const again = await server.request('DELETE', `/webhooks/${created.id}/signing_secret`);
    assert.equal(again.status, 204);
  });

  test('unknown webhooks are NOT_FOUND and the right is required', async () => {
    for (const method of ['POST', 'DELETE']) {
      const response = await server.request(method, '/webhooks/424242/signing_secret');
      assert.equal(response.status, 404);
      assert.deepEqual(errorCodesOf(response.body), ['NOT_FOUND']);
    }
    const created = await client.webhooks.create(webhookBody());
    const token = await tokenWithFlags(server.db, ['can_edit_schema']);
    const denied = await server.request(
      'POST',
      `/webhooks/${created.id}/signing_secret`,
      undefined,
      {
        authorization: `Bearer ${token}`,
      },
    );
    assert.equal(denied.status, 403);
    assert.deepEqual(errorCodesOf(denied.body), ['INSUFFICIENT_PERMISSIONS']);
    assert.equal(await storedSecret(created.id), null);
  });
});
