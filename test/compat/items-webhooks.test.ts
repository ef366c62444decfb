import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { LOOPBACK } from '../support/delivery-fixtures.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildField,
  buildModel,
  buildModularContentField,
  buildWebhook,
  itemTypeRef,
} from '../support/factories.ts';
import { type ReceivedRequest, useReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer({ webhookAllow: LOOPBACK });
const client = server.client();
const receiver = useReceiver();

const RECORD_EVENTS = ['create', 'update', 'delete', 'publish', 'unpublish'] as const;

type CreateBody = Parameters<Client['webhooks']['create']>[0];
type Events = CreateBody['events'];

let hooks = 0;
/** A webhook on the receiver, under its own path so each test reads only its requests. */
async function recordHook(events: Events, overrides: Partial<CreateBody> = {}) {
  hooks += 1;
  const path = `/hook-${hooks}`;
  const webhook = await buildWebhook(client, {
    url: `${receiver.url}${path}`,
    events,
    auto_retry: false,
    ...overrides,
  });
  return {
    webhook,
    /** The first `count` requests this webhook received. */
    async received(count: number): Promise<ReceivedRequest[]> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const mine = receiver.requests.filter((request) => request.path === path);
        if (mine.length >= count) return mine.slice(0, count);
        if (Date.now() > deadline) throw new Error(`${path} got ${mine.length} of ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    /** The calls made for it: written with each event, in the change's transaction. */
    async calls() {
      return client.webhookCalls.list({ filter: { fields: { webhook_id: { eq: webhook.id } } } });
    },
  };
}

type Entity = {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: { type: string; id: string } | null } | undefined>;
  meta: Record<string, unknown>;
};

/** The default payload as the receiver reads it. */
type Payload = {
  entity_type: string;
  event_type: string;
  environment: string;
  is_environment_primary: boolean;
  webhook_id: string;
  site_id: string;
  entity: Entity;
  previous_entity?: Entity;
  related_entities: Entity[];
};

/** Payloads by event type (deliveries may arrive in any order). */
function byEvent(requests: ReceivedRequest[]): Map<string, Payload> {
  const bodies: Payload[] = requests.map((request) => JSON.parse(request.body));
  return new Map(bodies.map((body) => [body.event_type, body]));
}

describe('record webhooks', () => {
  test('a receiver gets every record event with the record, its previous state and relationships', async () => {
    const model = await buildModel(client, { draft_mode_active: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const hook = await recordHook([
      { entity_type: 'item', event_types: [...RECORD_EVENTS], filters: null },
    ]);
    const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Draft' });
    await client.items.update(record.id, { title: 'Edited' });
    await client.items.publish(record.id);
    await client.items.unpublish(record.id);
    await client.items.destroy(record.id);

    const payloads = byEvent(await hook.received(5));
    assert.deepEqual([...payloads.keys()].sort(), [...RECORD_EVENTS].sort());
    const [site, tokens] = await Promise.all([client.site.find(), client.accessTokens.list()]);
    for (const [eventType, payload] of payloads) {
      assert.equal(payload.entity_type, 'item', eventType);
      assert.equal(payload.environment, 'main', eventType);
      assert.equal(payload.is_environment_primary, true, eventType);
      assert.equal(payload.webhook_id, hook.webhook.id, eventType);
      assert.equal(payload.site_id, site.id, eventType);
      assert.equal(payload.entity.type, 'item', eventType);
      assert.equal(payload.entity.id, record.id, eventType);
      assert.deepEqual(
        payload.entity.relationships.item_type?.data,
        itemTypeRef(model.id),
        eventType,
      );
      // Related entities: the record's model, then its creator (the admin token, no secret).
      const [relatedModel, creator] = payload.related_entities;
      assert.ok(relatedModel && creator, eventType);
      assert.equal(relatedModel.type, 'item_type', eventType);
      assert.equal(relatedModel.id, model.id, eventType);
      assert.equal(relatedModel.attributes.api_key, model.api_key, eventType);
      assert.equal(creator.type, 'access_token', eventType);
      assert.equal(creator.id, payload.entity.relationships.creator?.data?.id, eventType);
      assert.ok(tokens.some((token) => token.id === creator.id));
      assert.equal(creator.attributes.token, null, eventType);
      assert.equal('previous_entity' in payload, eventType === 'update', eventType);
    }
    const get = (eventType: string) => payloads.get(eventType) ?? assert.fail(eventType);
    assert.equal(get('create').entity.attributes.title, 'Draft');
    assert.equal(get('create').entity.meta.status, 'draft');
    assert.equal(get('update').entity.attributes.title, 'Edited');
    assert.equal(get('update').previous_entity?.attributes.title, 'Draft');
    assert.equal(get('update').previous_entity?.id, record.id);
    assert.equal(get('publish').entity.meta.status, 'published');
    assert.equal(get('unpublish').entity.meta.status, 'draft');
    // A deleted record is sent as it was.
    assert.equal(get('delete').entity.attributes.title, 'Edited');
  });

  test('tree records carry meta.has_children in payloads, as the write answers them', async () => {
    const model = await buildModel(client, { tree: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const parent = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Root' });
    const child = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Leaf' });
    const hook = await recordHook([
      { entity_type: 'item', event_types: ['update'], filters: null },
    ]);
    const moved = await client.items.update(child.id, { parent_id: parent.id });
    const renamed = await client.items.update(parent.id, { title: 'Root 2' });
    assert.equal(moved.meta.has_children, false);
    assert.equal(renamed.meta.has_children, true, 'the response says what the payload says');

    const payloads = (await hook.received(2)).map((r) => JSON.parse(r.body) as Payload);
    const of = (id: string) => payloads.find((p) => p.entity.id === id) ?? assert.fail(id);
    assert.equal(of(child.id).entity.meta.has_children, false);
    assert.equal(of(parent.id).entity.meta.has_children, true);
    assert.equal(of(parent.id).previous_entity?.meta.has_children, true);

    // A record of a model that is not a tree keeps null, as the client's ItemMeta has it.
    const flat = await buildModel(client);
    const flatHook = await recordHook([
      {
        entity_type: 'item',
        event_types: ['create'],
        filters: [{ entity_type: 'item_type', entity_ids: [flat.id] }],
      },
    ]);
    await client.items.create({ item_type: itemTypeRef(flat.id) });
    const [created] = await flatHook.received(1);
    assert.equal((JSON.parse(created?.body ?? '{}') as Payload).entity.meta.has_children, null);
  });

  test('filters: by model (id or api_key), by record, by event type, by environment type', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const other = await buildModel(client);
    const byModelId = await recordHook([
      {
        entity_type: 'item',
        event_types: ['create', 'update'],
        filters: [{ entity_type: 'item_type', entity_ids: [model.id] }],
      },
    ]);
    const byApiKey = await recordHook([
      {
        entity_type: 'item',
        event_types: ['create'],
        filters: [{ entity_type: 'item_type', entity_ids: ['no_such_model', model.api_key] }],
      },
    ]);
    const sandboxOnly = await recordHook([
      {
        entity_type: 'item',
        event_types: ['create'],
        filters: [{ entity_type: 'environment_type', entity_ids: ['sandbox'] }],
      },
    ]);
    const first = await client.items.create({ item_type: itemTypeRef(model.id), title: 'one' });
    const second = await client.items.create({ item_type: itemTypeRef(model.id), title: 'two' });
    await client.items.create({ item_type: itemTypeRef(other.id) });
    const byRecord = await recordHook([
      {
        entity_type: 'item',
        event_types: ['update', 'delete'],
        filters: [
          { entity_type: 'item', entity_ids: [second.id] },
          { entity_type: 'item_type', entity_ids: [model.api_key] },
        ],
      },
    ]);
    await client.items.update(first.id, { title: 'one again' });
    await client.items.update(second.id, { title: 'two again' });
    await client.items.destroy(first.id);

    // Calls are written with their events, so every call that will ever be made exists now.
    const callsOf = async (hook: Awaited<ReturnType<typeof recordHook>>) =>
      (await hook.calls()).map((call) => call.event_type).sort();
    assert.deepEqual(await callsOf(byModelId), ['create', 'create', 'update', 'update']);
    assert.deepEqual(await callsOf(byApiKey), ['create', 'create']);
    assert.deepEqual(await callsOf(sandboxOnly), []);
    assert.deepEqual(await callsOf(byRecord), ['update']);
    const [update] = await byRecord.received(1);
    const payload = JSON.parse(update?.body ?? '');
    assert.equal(payload.entity.id, second.id);
    assert.equal(payload.entity.attributes.title, 'two again');
    const created = (await byApiKey.received(2)).map((request) => JSON.parse(request.body));
    assert.deepEqual(created.map((body) => body.entity.attributes.title).sort(), ['one', 'two']);
  });

  test('a custom payload renders the record, its previous values and its model', async () => {
    const model = await buildModel(client, { api_key: 'article' });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    await buildField(client, { itemTypeId: model.id, api_key: 'views', field_type: 'integer' });
    const hook = await recordHook(
      [{ entity_type: 'item', event_types: ['update'], filters: null }],
      {
        url: `${receiver.url}/hook-custom/{{entity_type}}/{{#entity}}{{id}}{{/entity}}`,
        custom_payload:
          '{"event": "{{event_type}}", "title": "{{entity.attributes.title}}", "was": "{{previous_entity.attributes.title}}", "views": {{entity.attributes.views}}, "model": "{{#related_entities}}{{#attributes.api_key}}{{attributes.api_key}}{{/attributes.api_key}}{{/related_entities}}", "environment": "{{environment}}"}',
      },
    );
    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: 'First "draft"',
      views: 1,
    });
    await client.items.update(record.id, { title: 'Final', views: 42 });
    const path = `/hook-custom/item/${record.id}`;
    const deadline = Date.now() + 60_000;
    let request: ReceivedRequest | undefined;
    while (!request) {
      request = receiver.requests.find((candidate) => candidate.path === path);
      if (!request && Date.now() > deadline) throw new Error(`nothing received on ${path}`);
      if (!request) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual(JSON.parse(request.body), {
      event: 'update',
      title: 'Final',
      was: 'First "draft"',
      views: 42,
      model: 'article',
      environment: 'main',
    });
    assert.equal((await hook.calls()).length, 1);
  });

  test('nested_items_in_payload: blocks arrive whole (recursively) on every record event, ids elsewhere', async () => {
    // `card` (single_block) holds `block`s in its own rich_text: nesting is recursive.
    const block = await buildBlockModel(client);
    const card = await buildBlockModel(client);
    await buildModularContentField(client, {
      itemTypeId: card.id,
      api_key: 'items',
      blockIds: [block.id],
    });
    const model = await buildModel(client, { draft_mode_active: true });
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    await buildModularContentField(client, {
      itemTypeId: model.id,
      api_key: 'sections',
      blockIds: [block.id],
    });
    await buildField(client, {
      itemTypeId: model.id,
      api_key: 'hero',
      field_type: 'single_block',
      validators: { single_block_blocks: { item_types: [card.id] } },
    });
    const events: Events = [
      { entity_type: 'item', event_types: [...RECORD_EVENTS], filters: null },
    ];
    const flat = await recordHook(events);
    const nested = await recordHook(events, { nested_items_in_payload: true });
    const custom = await recordHook(events, {
      nested_items_in_payload: true,
      custom_payload:
        '{"first":"{{#entity}}{{#attributes}}{{#sections}}{{#attributes}}{{title}}{{/attributes}}{{/sections}}{{/attributes}}{{/entity}}"}',
    });
    assert.equal(nested.webhook.nested_items_in_payload, true);

    const record = await client.items.create({
      item_type: itemTypeRef(model.id),
      title: 'Hi',
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'One' } })],
      hero: blockInRequest({
        itemTypeId: card.id,
        attributes: {
          title: 'Card',
          items: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'Inner' } })],
        },
      }),
    });
    const [sectionId] = record.sections as string[];
    const heroId = record.hero as string;
    assert.ok(sectionId && heroId);
    // The update replaces the section: the previous entity still shows the old one whole.
    await client.items.update(record.id, {
      sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'Two' } })],
    });
    await client.items.publish(record.id);
    await client.items.unpublish(record.id);
    await client.items.destroy(record.id);

    const flatPayloads = byEvent(await flat.received(5));
    const nestedPayloads = byEvent(await nested.received(5));
    type Block = { id: string; type: string; attributes: Record<string, unknown> };
    const sectionsOf = (entity: Entity | undefined) => entity?.attributes.sections as Block[];
    const heroOf = (entity: Entity | undefined) => entity?.attributes.hero as Block;

    for (const eventType of RECORD_EVENTS) {
      const plain = flatPayloads.get(eventType)?.entity;
      const whole = nestedPayloads.get(eventType)?.entity;
      assert.equal(whole?.id, record.id, eventType);
      const [section] = sectionsOf(whole);
      const expectedTitle = eventType === 'create' ? 'One' : 'Two';
      assert.equal(section?.type, 'item', eventType);
      assert.equal(section?.attributes.title, expectedTitle, eventType);
      assert.deepEqual(sectionsOf(plain), [section?.id], eventType);
      const hero = heroOf(whole);
      assert.equal(hero.id, heroId, eventType);
      assert.equal(hero.attributes.title, 'Card', eventType);
      const [inner] = hero.attributes.items as Block[];
      assert.equal(inner?.type, 'item', eventType);
      assert.equal(inner?.attributes.title, 'Inner', eventType);
      assert.equal(heroOf(plain) as unknown, heroId, eventType);
      // Everything but the block values is the same record.
      assert.deepEqual(
        { ...whole, attributes: { ...whole?.attributes, sections: null, hero: null } },
        { ...plain, attributes: { ...plain?.attributes, sections: null, hero: null } },
        eventType,
      );
    }
    const previousSections = sectionsOf(nestedPayloads.get('update')?.previous_entity);
    assert.equal(previousSections[0]?.id, sectionId);
    assert.equal(previousSections[0]?.attributes.title, 'One');
    assert.deepEqual(sectionsOf(flatPayloads.get('update')?.previous_entity), [sectionId]);

    // A custom payload sees the entity the webhook would get.
    const firsts = (await custom.received(5)).map((request) => JSON.parse(request.body).first);
    assert.deepEqual(firsts.sort(), ['One', 'Two', 'Two', 'Two', 'Two']);
  });

  test('nested_items_in_payload: a record without blocks is delivered the same to both', async () => {
    const model = await buildModel(client);
    await buildField(client, { itemTypeId: model.id, api_key: 'title' });
    const flat = await recordHook([
      { entity_type: 'item', event_types: ['create'], filters: null },
    ]);
    const nested = await recordHook(
      [{ entity_type: 'item', event_types: ['create'], filters: null }],
      { nested_items_in_payload: true },
    );
    const record = await client.items.create({ item_type: itemTypeRef(model.id), title: 'Hi' });
    const [flatRequest] = await flat.received(1);
    const [nestedRequest] = await nested.received(1);
    const flatEntity = JSON.parse(flatRequest?.body ?? '').entity;
    const nestedEntity = JSON.parse(nestedRequest?.body ?? '').entity;
    assert.equal(nestedEntity.id, record.id);
    assert.equal(nestedEntity.attributes.title, 'Hi');
    assert.deepEqual(nestedEntity, flatEntity);
  });
});
