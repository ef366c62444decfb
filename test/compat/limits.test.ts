import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadScope, qualifiedTable } from '../../src/db/environment-scope.ts';
import {
  COUNT_LIMITS,
  type CountLimit,
  MAX_API_KEY_LENGTH,
  MAX_CUSTOM_PAYLOAD_LENGTH,
  MAX_ENUM_VALUES,
  MAX_EVENT_TYPES_PER_EVENT,
  MAX_EVENTS_PER_WEBHOOK,
  MAX_FIELD_JSON_LENGTH,
  MAX_FILTERS_PER_EVENT,
  MAX_HEADER_VALUE_LENGTH,
  MAX_HEADERS_PER_WEBHOOK,
  MAX_HINT_LENGTH,
  MAX_IDS_PER_FILTER,
  MAX_LOCALES,
  MAX_NAME_LENGTH,
  MAX_PERMISSIONS_PER_LIST,
  MAX_URL_LENGTH,
  MAX_VALIDATOR_ITEM_TYPES,
  MAX_WORKFLOW_STAGES,
} from '../../src/domain/limits.ts';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

const long = (length: number) => 'a'.repeat(length);
const ref = <T extends string>(type: T, id: string) => ({ type, id });

/** Refused with INVALID_FIELD / VALIDATION_LENGTH on `field`, the message naming the maximum. */
async function refusesLength(
  call: Promise<unknown>,
  recordType: string,
  field: string,
  max: number,
): Promise<void> {
  await assert.rejects(call, (error) => {
    const filter = { field, code: 'VALIDATION_LENGTH', record_type: recordType };
    const found = apiError(error).findError('INVALID_FIELD', filter);
    assert.ok(found, `${JSON.stringify(filter)} → ${JSON.stringify(apiError(error).errors)}`);
    assert.match(String(found.attributes.details.message), new RegExp(`\\b${max}\\b`));
    return true;
  });
}

/** Refused with LIMIT_EXCEEDED naming this limit and its maximum. */
async function refusesCount(call: Promise<unknown>, limit: CountLimit): Promise<void> {
  await rejectsWithApiError(call, 'LIMIT_EXCEEDED', { limit });
  await call.catch((error) => {
    assert.equal(apiError(error).response.status, 422);
    const details = apiError(error).errors[0]?.attributes.details as Record<string, unknown>;
    assert.equal(details.max, COUNT_LIMITS[limit]);
  });
}

/** An environment table of the primary, qualified for raw SQL seeding. */
async function primaryTable(
  table: 'fields' | 'fieldsets' | 'item_types' | 'menu_items' | 'schema_menu_items',
) {
  return qualifiedTable((await loadScope(server.db)).environment.schemaName, table);
}

async function countRows(
  table: 'item_types' | 'fields' | 'fieldsets' | 'webhooks' | 'menu_items' | 'schema_menu_items',
  where?: { column: 'item_type_id'; value: string },
): Promise<number> {
  if (table === 'webhooks') {
    const webhooks = await server.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(webhooks.count);
  }
  let query = (await loadScope(server.db)).db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('count'));
  if (where) query = query.where(where.column, '=', where.value);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/** `calls` run at once: exactly `room` succeed, every other one is LIMIT_EXCEEDED. */
async function raceAtTheLimit(calls: (() => Promise<unknown>)[], room: number): Promise<void> {
  const results = await Promise.allSettled(calls.map((call) => call()));
  const refused = results.filter((result) => result.status === 'rejected');
  assert.equal(results.length - refused.length, room, 'exactly the room left is used');
  for (const result of refused) {
    assert.equal(apiError(result.reason).errors[0]?.attributes.code, 'LIMIT_EXCEEDED');
  }
}

describe('string lengths', () => {
  test('models: name, api_key and hint; a refused update changes nothing', async () => {
    const before = await countRows('item_types');
    await refusesLength(
      client.itemTypes.create({ name: long(MAX_NAME_LENGTH + 1), api_key: 'too_long_name' }),
      'ItemType',
      'name',
      MAX_NAME_LENGTH,
    );
    await refusesLength(
      client.itemTypes.create({ name: 'Long key', api_key: long(MAX_API_KEY_LENGTH + 1) }),
      'ItemType',
      'api_key',
      MAX_API_KEY_LENGTH,
    );
    await refusesLength(
      client.itemTypes.create({ name: 'Long hint', api_key: 'long_hint', hint: long(10_001) }),
      'ItemType',
      'hint',
      MAX_HINT_LENGTH,
    );
    assert.equal(await countRows('item_types'), before, 'nothing was created');

    const name = long(MAX_NAME_LENGTH);
    const model = await client.itemTypes.create({ name, api_key: 'bounded', hint: 'short' });
    assert.equal(model.name, name, 'the maximum itself is accepted');
    await refusesLength(
      client.itemTypes.update(model.id, { hint: long(MAX_HINT_LENGTH + 1) }),
      'ItemType',
      'hint',
      MAX_HINT_LENGTH,
    );
    assert.equal((await client.itemTypes.find(model.id)).hint, 'short');
  });

  test('fields: label, api_key, hint, validators, appearance and default value', async () => {
    const model = await client.itemTypes.create({ name: 'Field host', api_key: 'field_host' });
    const base = { label: 'Title', api_key: 'title', field_type: 'string' as const };
    const cases: [Record<string, unknown>, string, number][] = [
      [{ label: long(MAX_NAME_LENGTH + 1) }, 'label', MAX_NAME_LENGTH],
      [{ api_key: long(MAX_API_KEY_LENGTH + 1) }, 'api_key', MAX_API_KEY_LENGTH],
      [{ hint: long(MAX_HINT_LENGTH + 1) }, 'hint', MAX_HINT_LENGTH],
      [
        { validators: { enum: { values: Array.from({ length: 1001 }, (_, i) => `v${i}`) } } },
        'validators',
        MAX_ENUM_VALUES,
      ],
      [
        { validators: { enum: { values: ['ok', long(MAX_NAME_LENGTH + 1)] } } },
        'validators',
        MAX_NAME_LENGTH,
      ],
      [
        {
          field_type: 'link',
          validators: {
            item_item_type: {
              item_types: Array.from({ length: MAX_VALIDATOR_ITEM_TYPES + 1 }, (_, i) => `m${i}`),
            },
          },
        },
        'validators',
        MAX_VALIDATOR_ITEM_TYPES,
      ],
      [
        {
          appearance: {
            editor: 'single_line',
            parameters: { heading: false, padding: long(MAX_FIELD_JSON_LENGTH) },
            addons: [],
          },
        },
        'appearance',
        MAX_FIELD_JSON_LENGTH,
      ],
      [
        { field_type: 'text', default_value: long(MAX_FIELD_JSON_LENGTH) },
        'default_value',
        MAX_FIELD_JSON_LENGTH,
      ],
    ];
    for (const [overrides, field, max] of cases) {
      await refusesLength(
        client.fields.create(model.id, { ...base, ...overrides } as never),
        'Field',
        field,
        max,
      );
    }
    assert.equal(await countRows('fields', { column: 'item_type_id', value: model.id }), 0);

    const created = await client.fields.create(model.id, { ...base, hint: 'short' });
    await refusesLength(
      client.fields.update(created.id, { label: long(MAX_NAME_LENGTH + 1) }),
      'Field',
      'label',
      MAX_NAME_LENGTH,
    );
    assert.equal((await client.fields.find(created.id)).label, 'Title');
  });

  test('fieldsets: title and hint', async () => {
    const model = await client.itemTypes.create({ name: 'Set host', api_key: 'set_host' });
    await refusesLength(
      client.fieldsets.create(model.id, { title: long(MAX_NAME_LENGTH + 1) }),
      'Fieldset',
      'title',
      MAX_NAME_LENGTH,
    );
    await refusesLength(
      client.fieldsets.create(model.id, { title: 'Ok', hint: long(MAX_HINT_LENGTH + 1) }),
      'Fieldset',
      'hint',
      MAX_HINT_LENGTH,
    );
    assert.equal(await countRows('fieldsets', { column: 'item_type_id', value: model.id }), 0);
  });

  test('webhooks: every string and list', async () => {
    const hook = {
      name: 'Bounded hook',
      url: 'https://example.com/hook',
      custom_payload: null,
      headers: {},
      events: [],
      http_basic_user: null,
      http_basic_password: null,
    };
    const event = { entity_type: 'item_type', event_types: ['create'] };
    const filtered = (entity_ids: string[]) => ({
      ...event,
      filters: [{ entity_type: 'item_type', entity_ids }],
    });
    const manyHeaders = Object.fromEntries(
      Array.from({ length: MAX_HEADERS_PER_WEBHOOK + 1 }, (_, i) => [`X-H${i}`, 'v']),
    );
    const cases: [Record<string, unknown>, string, number][] = [
      [{ name: long(MAX_NAME_LENGTH + 1) }, 'name', MAX_NAME_LENGTH],
      [{ url: `https://example.com/${long(MAX_URL_LENGTH)}` }, 'url', MAX_URL_LENGTH],
      [
        { custom_payload: long(MAX_CUSTOM_PAYLOAD_LENGTH + 1) },
        'custom_payload',
        MAX_CUSTOM_PAYLOAD_LENGTH,
      ],
      [{ headers: manyHeaders }, 'headers', MAX_HEADERS_PER_WEBHOOK],
      [{ headers: { [long(MAX_NAME_LENGTH + 1)]: 'v' } }, 'headers', MAX_NAME_LENGTH],
      [
        { headers: { 'X-Big': long(MAX_HEADER_VALUE_LENGTH + 1) } },
        'headers',
        MAX_HEADER_VALUE_LENGTH,
      ],
      [
        { events: Array.from({ length: MAX_EVENTS_PER_WEBHOOK + 1 }, () => event) },
        'events',
        MAX_EVENTS_PER_WEBHOOK,
      ],
      [
        {
          events: [
            {
              entity_type: 'item_type',
              event_types: Array.from({ length: MAX_EVENT_TYPES_PER_EVENT + 1 }, () => 'create'),
            },
          ],
        },
        'events',
        MAX_EVENT_TYPES_PER_EVENT,
      ],
      [
        {
          events: [
            {
              ...event,
              filters: Array.from({ length: MAX_FILTERS_PER_EVENT + 1 }, () => ({
                entity_type: 'item_type',
                entity_ids: ['x'],
              })),
            },
          ],
        },
        'events',
        MAX_FILTERS_PER_EVENT,
      ],
      [
        {
          events: [filtered(Array.from({ length: MAX_IDS_PER_FILTER + 1 }, (_, i) => `id${i}`))],
        },
        'events',
        MAX_IDS_PER_FILTER,
      ],
      [{ events: [filtered([long(MAX_NAME_LENGTH + 1)])] }, 'events', MAX_NAME_LENGTH],
      [{ http_basic_user: long(MAX_NAME_LENGTH + 1) }, 'http_basic_user', MAX_NAME_LENGTH],
      [
        { http_basic_user: 'u', http_basic_password: long(MAX_NAME_LENGTH + 1) },
        'http_basic_password',
        MAX_NAME_LENGTH,
      ],
    ];
    const before = await countRows('webhooks');
    for (const [overrides, field, max] of cases) {
      await refusesLength(
        client.webhooks.create({ ...hook, ...overrides } as never),
        'Webhook',
        field,
        max,
      );
    }
    assert.equal(await countRows('webhooks'), before, 'nothing was created');

    const created = await client.webhooks.create({ ...hook, headers: { 'X-One': '1' } });
    await refusesLength(
      client.webhooks.update(created.id, { headers: manyHeaders }),
      'Webhook',
      'headers',
      MAX_HEADERS_PER_WEBHOOK,
    );
    assert.deepEqual((await client.webhooks.find(created.id)).headers, { 'X-One': '1' });
  });

  test('menus, workflows, roles, tokens and the site', async () => {
    await refusesLength(
      client.menuItems.create({ label: long(MAX_NAME_LENGTH + 1) }),
      'MenuItem',
      'label',
      MAX_NAME_LENGTH,
    );
    await refusesLength(
      client.menuItems.create({
        label: 'Far',
        external_url: `https://example.com/${long(MAX_URL_LENGTH)}`,
      }),
      'MenuItem',
      'external_url',
      MAX_URL_LENGTH,
    );
    await refusesLength(
      client.schemaMenuItems.create({ label: long(MAX_NAME_LENGTH + 1), kind: 'item_type' }),
      'SchemaMenuItem',
      'label',
      MAX_NAME_LENGTH,
    );

    const stage = { id: 'draft', name: 'Draft' };
    await refusesLength(
      client.workflows.create({ name: long(MAX_NAME_LENGTH + 1), api_key: 'wf', stages: [stage] }),
      'Workflow',
      'name',
      MAX_NAME_LENGTH,
    );
    const stages = Array.from({ length: MAX_WORKFLOW_STAGES + 1 }, (_, i) => ({
      id: `s${i}`,
      name: `Stage ${i}`,
    }));
    await refusesLength(
      client.workflows.create({ name: 'Many', api_key: 'many', stages: stages as [typeof stage] }),
      'Workflow',
      'stages',
      MAX_WORKFLOW_STAGES,
    );

    await refusesLength(
      client.roles.create({ name: long(MAX_NAME_LENGTH + 1) }),
      'Role',
      'name',
      MAX_NAME_LENGTH,
    );
    const permission = {
      action: 'all' as const,
      environment: 'main',
      on_creator: 'anyone' as const,
      localization_scope: 'all' as const,
    };
    await refusesLength(
      client.roles.create({
        name: 'Crowded',
        positive_item_type_permissions: Array.from(
          { length: MAX_PERMISSIONS_PER_LIST + 1 },
          () => permission,
        ),
        negative_item_type_permissions: [],
      }),
      'Role',
      'positive_item_type_permissions',
      MAX_PERMISSIONS_PER_LIST,
    );
    await refusesLength(
      client.roles.create({
        name: 'Long ids',
        positive_item_type_permissions: [{ ...permission, item_type: long(MAX_NAME_LENGTH + 1) }],
        negative_item_type_permissions: [],
      }),
      'Role',
      'positive_item_type_permissions',
      MAX_NAME_LENGTH,
    );
    const role = await client.roles.create({ name: 'Token holder' });
    await refusesLength(
      client.accessTokens.create({
        name: long(MAX_NAME_LENGTH + 1),
        can_access_cda: true,
        can_access_cda_preview: false,
        can_access_cma: true,
        role: ref('role', role.id),
      }),
      'AccessToken',
      'name',
      MAX_NAME_LENGTH,
    );

    const site = await client.site.find();
    await refusesLength(
      client.site.update({ name: long(MAX_NAME_LENGTH + 1) }),
      'Site',
      'name',
      MAX_NAME_LENGTH,
    );
    const locales = Array.from({ length: MAX_LOCALES + 1 }, (_, i) => `x${i}`) as [string];
    await refusesLength(client.site.update({ locales }), 'Site', 'locales', MAX_LOCALES);
    const after = await client.site.find();
    assert.deepEqual([after.name, after.locales], [site.name, site.locales]);
  });
});

describe('collection sizes', () => {
  test('fields per model: creates racing at the limit never overshoot', async () => {
    const model = await client.itemTypes.create({ name: 'Crowded', api_key: 'crowded' });
    const max = COUNT_LIMITS.fields_per_item_type;
    const room = 2;
    await sql`
      INSERT INTO ${await primaryTable('fields')} (id, item_type_id, fieldset_id, label, api_key, field_type, localized,
        validators, appearance, position, hint, default_value, deep_filtering_enabled,
        content_link_enabled)
      SELECT 'seedfield' || g, ${model.id}, NULL, 'Seed ' || g, 'seed' || g, 'string', false,
        '{}', '{"editor":"single_line","parameters":{"heading":false},"addons":[]}', g, NULL,
        'null', false, true
      FROM generate_series(1, ${max - room}) AS g
    `.execute(server.db);
    await raceAtTheLimit(
      Array.from(
        { length: 6 },
        (_, i) => () =>
          client.fields.create(model.id, {
            label: `Racer ${i}`,
            api_key: `racer${i}`,
            field_type: 'string',
          }),
      ),
      room,
    );
    assert.equal(await countRows('fields', { column: 'item_type_id', value: model.id }), max);
    await refusesCount(client.fields.duplicate('seedfield1'), 'fields_per_item_type');
    assert.equal(await countRows('fields', { column: 'item_type_id', value: model.id }), max);
    await client.itemTypes.destroy(model.id);
  });

  test('fieldsets per model', async () => {
    const model = await client.itemTypes.create({ name: 'Sectioned', api_key: 'sectioned' });
    const max = COUNT_LIMITS.fieldsets_per_item_type;
    await sql`
      INSERT INTO ${await primaryTable('fieldsets')} (id, item_type_id, title, hint, position, collapsible, start_collapsed)
      SELECT 'seedset' || g, ${model.id}, 'Seed ' || g, NULL, g, false, false
      FROM generate_series(1, ${max - 1}) AS g
    `.execute(server.db);
    await raceAtTheLimit(
      Array.from(
        { length: 4 },
        (_, i) => () => client.fieldsets.create(model.id, { title: `${i}` }),
      ),
      1,
    );
    await refusesCount(
      client.fieldsets.create(model.id, { title: 'One more' }),
      'fieldsets_per_item_type',
    );
    assert.equal(await countRows('fieldsets', { column: 'item_type_id', value: model.id }), max);
    await client.itemTypes.destroy(model.id);
  });

  test('models per project: creates and duplicates racing at the limit never overshoot', async () => {
    const max = COUNT_LIMITS.item_types;
    const room = 3;
    const seeded = max - room - (await countRows('item_types'));
    await sql`
      INSERT INTO ${await primaryTable('item_types')} (id, name, api_key, singleton, sortable, tree, modular_block,
        draft_mode_active, draft_saving_active, all_locales_required, collection_appearance,
        inverse_relationships_enabled)
      SELECT 'seedmodel' || g, 'Seed model ' || g, 'seed_model' || g, false, false, false,
        false, false, false, false, 'compact', false
      FROM generate_series(1, ${seeded}) AS g
    `.execute(server.db);
    try {
      const source = await client.itemTypes.create({ name: 'Source', api_key: 'source' });
      await raceAtTheLimit(
        [
          ...Array.from(
            { length: 4 },
            (_, i) => () => client.itemTypes.create({ name: `Racer ${i}`, api_key: `racer${i}` }),
          ),
          () => client.itemTypes.duplicate(source.id),
          () => client.itemTypes.duplicate(source.id),
        ],
        room - 1,
      );
      assert.equal(await countRows('item_types'), max);
      const menuItems = await countRows('menu_items');
      await refusesCount(
        client.itemTypes.create({ name: 'One more', api_key: 'one_more' }),
        'item_types',
      );
      assert.equal(await countRows('item_types'), max);
      assert.equal(await countRows('menu_items'), menuItems, 'no menu item was added either');
    } finally {
      await sql`DELETE FROM ${await primaryTable('item_types')} WHERE id LIKE 'seedmodel%'`.execute(
        server.db,
      );
    }
  });

  test('webhooks per project: creates racing at the limit never overshoot', async () => {
    const max = COUNT_LIMITS.webhooks;
    const room = 3;
    const seeded = max - room - (await countRows('webhooks'));
    await sql`
      INSERT INTO webhooks (name, url, headers, events, enabled, payload_api_version,
        nested_items_in_payload, auto_retry)
      SELECT 'Seed hook ' || g, 'https://example.com/seed', '{}', '[]', false, '3', false, true
      FROM generate_series(1, ${seeded}) AS g
    `.execute(server.db);
    try {
      await raceAtTheLimit(
        Array.from(
          { length: 8 },
          (_, i) => () =>
            client.webhooks.create({
              name: `Racing hook ${i}`,
              url: 'https://example.com/hook',
              custom_payload: null,
              headers: {},
              events: [],
              http_basic_user: null,
              http_basic_password: null,
            }),
        ),
        room,
      );
      assert.equal(await countRows('webhooks'), max);
    } finally {
      await sql`DELETE FROM webhooks WHERE name LIKE 'Seed hook %'`.execute(server.db);
    }
  });

  test('menu items and schema menu items', async () => {
    for (const [table, limit] of [
      ['menu_items', 'menu_items'],
      ['schema_menu_items', 'schema_menu_items'],
    ] as const) {
      const max = COUNT_LIMITS[limit];
      const seeded = max - 2 - (await countRows(table));
      const kind = table === 'schema_menu_items' ? sql`, kind` : sql``;
      const kindValue = table === 'schema_menu_items' ? sql`, 'item_type'` : sql``;
      const tab = table === 'menu_items' ? sql`, open_in_new_tab` : sql``;
      const tabValue = table === 'menu_items' ? sql`, false` : sql``;
      // Nested under one seeded folder, so new items append at the top level.
      await sql`
        INSERT INTO ${await primaryTable(table)} (id, label, position ${kind} ${tab})
        VALUES ('seedfolder', 'Seeds', 1000000 ${kindValue} ${tabValue})
      `.execute(server.db);
      await sql`
        INSERT INTO ${await primaryTable(table)} (id, label, position, parent_id ${kind} ${tab})
        SELECT 'seeditem' || g, 'Seed ' || g, g, 'seedfolder' ${kindValue} ${tabValue}
        FROM generate_series(1, ${seeded - 1}) AS g
      `.execute(server.db);
      try {
        const create =
          table === 'menu_items'
            ? (label: string) => client.menuItems.create({ label })
            : (label: string) => client.schemaMenuItems.create({ label, kind: 'item_type' });
        await raceAtTheLimit(
          Array.from({ length: 5 }, (_, i) => () => create(`Racer ${i}`)),
          2,
        );
        assert.equal(await countRows(table), max);
        await refusesCount(create('One more'), limit);
      } finally {
        await sql`DELETE FROM ${await primaryTable(table)} WHERE id LIKE 'seed%'`.execute(
          server.db,
        );
      }
    }
  });
});

describe('request body size', () => {
  test('an oversized body is a 413 JSON:API error, raw or through the client', async () => {
    const oversized = JSON.stringify({
      data: { type: 'item_type', attributes: { name: 'Big', api_key: 'big', hint: long(2 ** 20) } },
    });
    const before = await countRows('item_types');
    const response = await fetch(`${server.baseUrl}/item-types`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.adminToken}`,
        accept: 'application/json',
        'content-type': 'application/json',
        'x-api-version': '3',
      },
      body: oversized,
    });
    assert.equal(response.status, 413);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as {
      data: { type: string; attributes: { code: string; details: Record<string, unknown> } }[];
    };
    assert.equal(body.data[0]?.type, 'api_error');
    assert.equal(body.data[0]?.attributes.code, 'REQUEST_BODY_TOO_LARGE');
    assert.equal(body.data[0]?.attributes.details.max_bytes, 1024 * 1024);
    assert.match(String(body.data[0]?.attributes.details.message), /1048576 bytes/);

    await assert.rejects(
      client.itemTypes.create({ name: 'Big', api_key: 'big', hint: long(2 ** 20) }),
      (error) => {
        assert.equal(apiError(error).response.status, 413);
        assert.ok(apiError(error).findError('REQUEST_BODY_TOO_LARGE'));
        return true;
      },
    );
    assert.equal(await countRows('item_types'), before, 'nothing was created');
  });
});
