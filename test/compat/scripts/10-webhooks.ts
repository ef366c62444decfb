// Webhooks as projects configure them: one per integration, with event filters on
// models, a custom Mustache payload, headers, basic auth, and the delivery options.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';

const ARTICLE = 'bNfUrqenQvq6WiI_mTXcrA';

const PAYLOAD = JSON.stringify({
  event: '{{event_type}}',
  model: '{{#entity}}{{attributes.api_key}}{{/entity}}',
  environment: '{{environment}}',
});

export default async function (client: Client) {
  await client.itemTypes.create(
    { id: ARTICLE, name: 'Article', api_key: 'article', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );

  await client.webhooks.create({
    name: 'Rebuild site',
    url: 'https://api.netlify.example/build_hooks/abc123',
    custom_payload: null,
    headers: {},
    events: [
      { entity_type: 'item_type', event_types: ['create', 'update', 'delete'] },
      {
        entity_type: 'item',
        event_types: ['publish', 'unpublish', 'delete'],
        filters: [
          { entity_type: 'item_type', entity_ids: [ARTICLE] },
          { entity_type: 'environment_type', entity_ids: ['primary'] },
        ],
      },
    ],
    http_basic_user: null,
    http_basic_password: null,
    enabled: true,
    payload_api_version: '3',
    nested_items_in_payload: false,
    auto_retry: true,
  });

  const search = await client.webhooks.create({
    name: 'Search index',
    url: 'https://search.example.com/hooks/datocms',
    custom_payload: PAYLOAD,
    headers: { 'X-Index': 'articles', Authorization: 'Bearer secret-token' },
    events: [{ entity_type: 'item_type', event_types: ['create', 'delete'], filters: [] }],
    http_basic_user: 'indexer',
    http_basic_password: 'p4ssw0rd',
    enabled: false,
    payload_api_version: '3',
    nested_items_in_payload: true,
    auto_retry: false,
  });

  // Later: enable it and narrow it to the article model.
  await client.webhooks.update(search.id, {
    enabled: true,
    events: [
      {
        entity_type: 'item_type',
        event_types: ['create', 'delete'],
        filters: [{ entity_type: 'item_type', entity_ids: [ARTICLE] }],
      },
    ],
  });
}

export async function expect(client: Client) {
  const hooks = await client.webhooks.list();
  const byName = Object.fromEntries(hooks.map((hook) => [hook.name, hook]));
  assert.deepEqual(Object.keys(byName).sort(), ['Rebuild site', 'Search index']);
  const rebuild = byName['Rebuild site'];
  assert.ok(rebuild);
  assert.equal(rebuild.url, 'https://api.netlify.example/build_hooks/abc123');
  assert.equal(rebuild.custom_payload, null);
  assert.deepEqual(rebuild.headers, {});
  assert.equal(rebuild.enabled, true);
  assert.equal(rebuild.auto_retry, true);
  assert.equal(rebuild.nested_items_in_payload, false);
  assert.equal(rebuild.payload_api_version, '3');
  assert.equal(rebuild.events.length, 2);
  assert.deepEqual(rebuild.events[1], {
    entity_type: 'item',
    event_types: ['publish', 'unpublish', 'delete'],
    filters: [
      { entity_type: 'item_type', entity_ids: [ARTICLE] },
      { entity_type: 'environment_type', entity_ids: ['primary'] },
    ],
  });

  const search = byName['Search index'];
  assert.ok(search);
  assert.equal(search.custom_payload, PAYLOAD);
  assert.deepEqual(search.headers, { 'X-Index': 'articles', Authorization: 'Bearer secret-token' });
  assert.equal(search.http_basic_user, 'indexer');
  assert.equal(search.enabled, true);
  assert.equal(search.nested_items_in_payload, true);
  assert.equal(search.auto_retry, false);
  assert.deepEqual(search.events, [
    {
      entity_type: 'item_type',
      event_types: ['create', 'delete'],
      filters: [{ entity_type: 'item_type', entity_ids: [ARTICLE] }],
    },
  ]);
}
