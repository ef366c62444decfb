import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateId } from '@datocms/cma-client-node';
import { apiError, errorCodesOf, rejectsWithApiError } from '../support/api-errors.ts';
import {
  blockInRequest,
  buildBlockModel,
  buildModel,
  buildModelWithBlocks,
  itemTypeRef,
} from '../support/factories.ts';
import { eventsOf } from '../support/fixtures.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();
async function stringField(
  itemTypeId: string,
  apiKey: string,
  extra: Record<string, unknown> = {},
) {
  return client.fields.create(itemTypeId, {
    label: apiKey,
    api_key: apiKey,
    field_type: 'string',
    ...extra,
  });
}

/** Everything observable about a model's schema, to prove a request changed nothing. */
async function snapshot(itemTypeId: string) {
  return {
    itemType: await client.itemTypes.find(itemTypeId),
    fields: await client.fields.list(itemTypeId),
    fieldsets: await client.fieldsets.list(itemTypeId),
    events: (await eventsOf(server.db, itemTypeId)).length,
  };
}

describe('fields through the official client', () => {
  test('create returns the spec shape with defaults filled, and no meta', async () => {
    const model = await buildModel(client);
    const raw = await client.fields.rawCreate(model.id, {
      data: {
        type: 'field',
        attributes: { label: 'Title', api_key: 'title', field_type: 'string' },
      },
    });
    assert.equal(raw.data.type, 'field');
    assert.deepEqual(Object.keys(raw.data.attributes).sort(), [
      'api_key',
      'appearance',
      'content_link_enabled',
      'deep_filtering_enabled',
      'default_value',
      'field_type',
      'hint',
      'label',
      'localized',
      'position',
      'validators',
    ]);
    assert.equal('meta' in raw.data, false);
    assert.deepEqual(raw.data.relationships, {
      item_type: { data: { type: 'item_type', id: model.id } },
      fieldset: { data: null },
    });
    const a = raw.data.attributes;
    assert.equal(a.localized, false);
    assert.deepEqual(a.validators, {});
    assert.equal(a.appearance.editor, 'single_line');
    assert.deepEqual(a.appearance.addons, []);
    assert.equal(a.position, 1);
    assert.equal(a.hint, null);
    assert.equal(a.default_value, null);
    assert.equal(a.deep_filtering_enabled, false);
    assert.equal(a.content_link_enabled, true);
  });

  test('find, update, duplicate and destroy by id and by model::field', async () => {
    const model = await buildModel(client);
    const title = await stringField(model.id, 'title', { label: 'Title' });
    const key = `${model.api_key}::title`;

    assert.equal((await client.fields.find(title.id)).api_key, 'title');
    assert.equal((await client.fields.find(key)).id, title.id);

    const byKey = await client.fields.update(key, { label: 'Headline' });
    assert.equal(byKey.id, title.id);
    assert.equal(byKey.label, 'Headline');
    const byId = await client.fields.update(title.id, { hint: 'Shown on top' });
    assert.equal(byId.label, 'Headline');
    assert.equal(byId.hint, 'Shown on top');

    const body = await stringField(model.id, 'body');
    const copy = await client.fields.duplicate(key);
    assert.equal(copy.label, 'Headline (copy #1)');
    assert.equal(copy.api_key, 'title_copy1');
    assert.equal(copy.hint, 'Shown on top');
    assert.equal(copy.position, 2, 'right after the original');
    assert.equal((await client.fields.find(body.id)).position, 3);
    const second = await client.fields.duplicate(title.id);
    assert.equal(second.label, 'Headline (copy #2)');

    assert.deepEqual(
      (await client.fields.list(model.api_key)).map((f) => [f.api_key, f.position]),
      [
        ['title', 1],
        ['title_copy2', 2],
        ['title_copy1', 3],
        ['body', 4],
      ],
    );

    const destroyed = await client.fields.destroy(key);
    assert.equal(destroyed.id, title.id);
    await rejectsWithApiError(client.fields.find(title.id), 'NOT_FOUND');
    await rejectsWithApiError(client.fields.find(key), 'NOT_FOUND');
    await rejectsWithApiError(
      client.fields.update(`${model.api_key}::nope`, { hint: 'x' }),
      'NOT_FOUND',
    );
    await rejectsWithApiError(client.fields.destroy('nope::title'), 'NOT_FOUND');
    assert.deepEqual(
      (await client.fields.list(model.id)).map((f) => f.position),
      [1, 2, 3],
    );
    const modelAfter = await client.itemTypes.find(model.id);
    assert.deepEqual(
      modelAfter.fields.map((f) => f.id),
      (await client.fields.list(model.id)).map((f) => f.id),
    );
  });

  test('a client-chosen id is kept; malformed or taken ids are refused', async () => {
    const model = await buildModel(client);
    const id = generateId();
    const field = await stringField(model.id, 'chosen', { id });
    assert.equal(field.id, id);
    await rejectsWithApiError(stringField(model.id, 'other', { id: 'nope' }), 'INVALID_FIELD', {
      field: 'id',
      code: 'VALIDATION_INVALID',
    });
    await rejectsWithApiError(stringField(model.id, 'other', { id }), 'INVALID_FIELD', {
      field: 'id',
      code: 'VALIDATION_UNIQUENESS',
    });
    assert.equal((await client.fields.list(model.id)).length, 1);
  });

  test('every attribute updates on its own; omitted ones stay, null clears', async () => {
    const model = await buildModel(client);
    const block = await buildBlockModel(client, { withTitle: false });
    const fieldset = await client.fieldsets.create(model.id, { title: 'Group' });
    const field = await stringField(model.id, 'name', { label: 'Name' });
    const other = await stringField(model.id, 'other', { label: 'Other' });
    let expected: Record<string, unknown> = { ...(await client.fields.find(field.id)) };

    const steps: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ label: 'Full name' }, { label: 'Full name' }],
      [{ api_key: 'full_name' }, { api_key: 'full_name' }],
      [{ hint: 'First and last' }, { hint: 'First and last' }],
      [{ hint: null }, { hint: null }],
      [{ validators: { required: {} } }, { validators: { required: {} } }],
      [
        { appearance: { editor: 'single_line', parameters: { heading: true }, addons: [] } },
        { appearance: { editor: 'single_line', parameters: { heading: true }, addons: [] } },
      ],
      [{ default_value: 'Anonymous' }, { default_value: 'Anonymous' }],
      [{ default_value: null }, { default_value: null }],
      [{ content_link_enabled: false }, { content_link_enabled: false }],
      [{ localized: true }, { localized: true, default_value: { en: null } }],
      [{ default_value: { en: 'Hello' } }, { default_value: { en: 'Hello' } }],
      [{ localized: false }, { localized: false, default_value: 'Hello' }],
      // The fieldset came first: the top level is [Group, name, other].
      [{ position: 3 }, { position: 3 }],
      [
        { fieldset: { type: 'fieldset', id: fieldset.id } },
        { fieldset: { type: 'fieldset', id: fieldset.id }, position: 1 },
      ],
      [{ fieldset: null }, { fieldset: null, position: 3 }],
    ];
    for (const [body, changed] of steps) {
      const updated = await client.fields.update(field.id, body);
      // The registry completes appearance parameters with their defaults: compare the editor.
      expected = { ...expected, ...changed, appearance: updated.appearance };
      assert.deepEqual(updated, expected, JSON.stringify(body));
      assert.deepEqual(await client.fields.find(field.id), updated);
      if (body.appearance) {
        assert.equal((updated.appearance.parameters as { heading?: boolean }).heading, true);
      }
    }
    assert.equal((await client.fields.find(other.id)).label, 'Other', 'siblings untouched');

    // The legacy spelling is accepted; addons default to none.
    const legacy = await client.fields.update(field.id, {
      appeareance: { editor: 'single_line', parameters: { heading: false } },
    });
    assert.equal(legacy.appearance.editor, 'single_line');
    assert.equal((legacy.appearance.parameters as { heading?: boolean }).heading, false);
    assert.deepEqual(legacy.appearance.addons, []);
    assert.equal(legacy.label, 'Full name');

    // field_type: string → text is a documented conversion; the editor becomes valid for text.
    const text = await client.fields.update(field.id, { field_type: 'text' });
    assert.equal(text.field_type, 'text');
    assert.equal(text.label, 'Full name');
    assert.ok(['markdown', 'wysiwyg', 'textarea'].includes(text.appearance.editor));

    // deep_filtering_enabled applies to fields that embed blocks.
    const blocks = await client.fields.create(model.id, {
      label: 'Content',
      api_key: 'content',
      field_type: 'rich_text',
      validators: { rich_text_blocks: { item_types: [block.id] } },
    });
    const deep = await client.fields.update(blocks.id, { deep_filtering_enabled: true });
    assert.equal(deep.deep_filtering_enabled, true);
    assert.equal(deep.label, 'Content');
  });

  test('an empty update changes nothing and writes no event', async () => {
    const model = await buildModel(client);
    const field = await stringField(model.id, 'title', { hint: 'kept' });
    const before = await snapshot(model.id);
    const updated = await client.fields.update(field.id, {});
    assert.deepEqual(updated, await client.fields.find(field.id));
    assert.deepEqual(await snapshot(model.id), before);
  });

  test('bad input is refused with the spec codes and changes nothing', async () => {
    const model = await buildModel(client);
    const otherModel = await buildModel(client);
    const foreignFieldset = await client.fieldsets.create(otherModel.id, { title: 'Elsewhere' });
    await stringField(otherModel.id, 'shared');
    const field = await stringField(model.id, 'title', { label: 'Title' });
    await stringField(model.id, 'taken', { label: 'Taken' });
    const before = await snapshot(model.id);
    const cases: [Record<string, unknown>, string, Record<string, string>][] = [
      [{ api_key: 'Bad Key' }, 'INVALID_FIELD', { field: 'api_key', code: 'VALIDATION_FORMAT' }],
      [{ api_key: 'a__b' }, 'INVALID_FIELD', { field: 'api_key', code: 'VALIDATION_FORMAT' }],
      [
        { api_key: 'item_type' },
        'INVALID_FIELD',
        { field: 'api_key', code: 'VALIDATION_EXCLUSION' },
      ],
      [{ api_key: 'taken' }, 'INVALID_FIELD', { field: 'api_key', code: 'VALIDATION_UNIQUENESS' }],
      [{ label: '  ' }, 'INVALID_FIELD', { field: 'label', code: 'VALIDATION_REQUIRED' }],
      [{ label: 'TAKEN' }, 'CLASHING_FIELD_LABELS', {}],
      [
        { field_type: 'boolean' },
        'INVALID_FIELD',
        { field: 'field_type', code: 'VALIDATION_INVALID' },
      ],
      [{ field_type: 'nope' }, 'INVALID_FORMAT', {}],
      [{ validators: { number_range: { min: 1 } } }, 'INVALID_FIELD', { field: 'validators' }],
      [
        { appearance: { editor: 'wysiwyg', parameters: {}, addons: [] } },
        'INVALID_FIELD',
        { field: 'appearance' },
      ],
      [{ default_value: 42 }, 'INVALID_FIELD', { field: 'default_value' }],
      [
        { deep_filtering_enabled: true },
        'INVALID_FIELD',
        { field: 'deep_filtering_enabled', code: 'VALIDATION_INVALID' },
      ],
      [{ position: -1 }, 'INVALID_FORMAT', {}],
      [
        { fieldset: { type: 'fieldset', id: foreignFieldset.id } },
        'INVALID_FIELD',
        { field: 'fieldset', code: 'VALIDATION_INVALID' },
      ],
    ];
    for (const [body, code, details] of cases) {
      await rejectsWithApiError(
        client.fields.update(field.id, body).then(() => assert.fail(JSON.stringify(body))),
        code,
        details,
      );
    }
    // The client drops attributes it does not know; a raw request shows the server refuses them.
    const unknown = await server.request('PUT', `/fields/${field.id}`, {
      data: { type: 'field', id: field.id, attributes: { unknown_attribute: true } },
    });
    assert.equal(unknown.status, 422);
    assert.deepEqual(errorCodesOf(unknown.body), ['INVALID_FORMAT']);
    const wrongType = await server.request('PUT', `/fields/${field.id}`, {
      data: { type: 'item_type', id: field.id, attributes: {} },
    });
    assert.deepEqual(errorCodesOf(wrongType.body), ['INVALID_TYPE']);
    await rejectsWithApiError(
      client.fields.create(model.id, {
        label: 'Count',
        api_key: 'count',
        field_type: 'integer',
        content_link_enabled: false,
      }),
      'INVALID_FIELD',
      { field: 'content_link_enabled', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.fields.create(model.id, {
        label: 'X',
        api_key: 'x1',
        field_type: 'string',
        position: -1,
      }),
      'INVALID_FORMAT',
    );
    assert.deepEqual(await snapshot(model.id), before);

    // Several failing attributes: one INVALID_FIELD entry each.
    await assert.rejects(client.fields.update(field.id, { api_key: 'Bad', label: '' }), (error) => {
      const fields = apiError(error).errors.map((e) => e.attributes.details.field);
      assert.deepEqual(fields, ['label', 'api_key']);
      return true;
    });
    // The same api_key on another model is fine.
    assert.equal((await stringField(model.id, 'shared')).api_key, 'shared');
  });

  test('every field change writes the model update event in its transaction', async () => {
    const model = await buildModel(client);
    const start = (await eventsOf(server.db, model.id)).length;
    const field = await stringField(model.id, 'title');
    await client.fields.update(field.id, { label: 'Heading' });
    const copy = await client.fields.duplicate(field.id);
    await client.fields.destroy(copy.id);
    const events = (await eventsOf(server.db, model.id)).slice(start);
    assert.equal(events.length, 4);
    for (const event of events) {
      assert.equal(event.entity_type, 'item_type');
      assert.equal(event.event_type, 'update');
      assert.equal(event.entity_id, model.id);
      assert.ok(event.previous_entity);
    }
    const ids = (e: { entity: unknown }) =>
      (
        e.entity as { relationships: { fields: { data: { id: string }[] } } }
      ).relationships.fields.data.map((f) => f.id);
    const [created, , duplicated, destroyed] = events;
    assert.ok(created && duplicated && destroyed);
    assert.deepEqual(ids({ entity: created.previous_entity }), []);
    assert.deepEqual(ids(created), [field.id]);
    assert.deepEqual(ids(duplicated), [field.id, copy.id]);
    assert.deepEqual(ids(destroyed), [field.id]);
  });
});

describe('the model a new field leaves', () => {
  test('response and event carry the model as read back, wherever the field lands', async () => {
    const model = await buildModel(client);
    const set = await client.fieldsets.create(model.id, { title: 'Set' });
    /** The model read back equals the event's entity and, for a create, the response's. */
    const matchesReadBack = async (included?: unknown[]) => {
      const readBack = (await client.itemTypes.rawFind(model.id)).data;
      const [event] = (await eventsOf(server.db, model.id)).slice(-1);
      assert.deepEqual(event?.entity, readBack);
      if (included) assert.deepEqual(included, [readBack]);
      return readBack.relationships.fields.data.map((field) => field.id);
    };
    const inSet = { type: 'fieldset' as const, id: set.id };
    const create = async (apiKey: string, position?: number, fieldset?: typeof inSet) => {
      const raw = await client.fields.rawCreate(model.id, {
        data: {
          type: 'field',
          attributes: { label: apiKey, api_key: apiKey, field_type: 'string', position },
          relationships: { fieldset: { data: fieldset ?? null } },
        },
      });
      return { id: raw.data.id, order: await matchesReadBack(raw.included) };
    };
    const a = await create('first');
    const b = await create('second', undefined, inSet);
    const c = await create('third', 1, inSet);
    const d = await create('fourth', 1);
    const e = await create('fifth', 2);
    assert.deepEqual(e.order, [d.id, e.id, c.id, b.id, a.id]);
    const copyOfC = await client.fields.duplicate(c.id);
    assert.deepEqual(await matchesReadBack(), [d.id, e.id, c.id, copyOfC.id, b.id, a.id]);
    const copyOfD = await client.fields.duplicate(d.id);
    assert.deepEqual(await matchesReadBack(), [
      d.id,
      copyOfD.id,
      e.id,
      c.id,
      copyOfC.id,
      b.id,
      a.id,
    ]);
  });

  test('records and blocks created alongside a new field all get its default', async () => {
    const { block, model } = await buildModelWithBlocks(client);
    const record = () =>
      client.items.create({
        item_type: itemTypeRef(model.id),
        sections: [blockInRequest({ itemTypeId: block.id, attributes: { title: 'T' } })],
      });
    // The field creates wait for the records committing before them, and the records
    // created after them take the default as any new record does.
    const [records] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, record)),
      stringField(model.id, 'subtitle', { default_value: 'none yet' }),
      stringField(block.id, 'tag', { default_value: 'new' }),
    ]);
    for (const { id } of records) {
      const found = (await client.items.rawFind(id, { nested: true })).data.attributes;
      assert.equal(found.subtitle, 'none yet');
      const [section] = found.sections as { attributes: Record<string, unknown> }[];
      assert.equal(section?.attributes.tag, 'new');
    }
  });
});

describe('fields under concurrency', () => {
  test('20 concurrent updates on different fields of one model all succeed and stick', async () => {
    const model = await buildModel(client);
    const fields = [];
    for (let i = 0; i < 20; i++) fields.push(await stringField(model.id, `f${i}x`));
    const results = await Promise.allSettled(
      fields.map((field, i) =>
        client.fields.update(field.id, { hint: `hint ${i}`, label: `Label ${i}` }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      fields.map(() => 'fulfilled'),
    );
    const stored = await client.fields.list(model.id);
    for (const [i, field] of fields.entries()) {
      const row = stored.find((f) => f.id === field.id);
      assert.equal(row?.hint, `hint ${i}`);
      assert.equal(row?.label, `Label ${i}`);
    }
    assert.deepEqual(
      stored.map((f) => f.position),
      fields.map((_, i) => i + 1),
    );
  });

  test('concurrent renames to one api_key give one success and uniqueness errors', async () => {
    const model = await buildModel(client);
    const fields = [];
    for (let i = 0; i < 10; i++) fields.push(await stringField(model.id, `r${i}x`));
    const results = await Promise.allSettled(
      fields.map((field) => client.fields.update(field.id, { api_key: 'winner' })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(ok.length, 1);
    assert.equal(failed.length, 9);
    for (const failure of failed) {
      assert.ok(
        apiError(failure.reason).findError('INVALID_FIELD', {
          field: 'api_key',
          code: 'VALIDATION_UNIQUENESS',
        }),
      );
    }
    const stored = await client.fields.list(model.id);
    assert.equal(stored.filter((f) => f.api_key === 'winner').length, 1);
  });

  test('concurrent creates keep positions contiguous', async () => {
    const model = await buildModel(client);
    await Promise.all(Array.from({ length: 12 }, (_, i) => stringField(model.id, `c${i}x`)));
    assert.deepEqual(
      (await client.fields.list(model.id)).map((f) => f.position),
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
  });
});

describe('fields and their model', () => {
  test('model relationships accept only eligible fields of the model', async () => {
    const model = await buildModel(client);
    const other = await buildModel(client);
    const title = await stringField(model.id, 'title');
    const flag = await client.fields.create(model.id, {
      label: 'Flag',
      api_key: 'flag',
      field_type: 'boolean',
    });
    const foreign = await stringField(other.id, 'title');
    const updated = await client.itemTypes.update(model.id, {
      title_field: { type: 'field', id: title.id },
      ordering_field: { type: 'field', id: title.id },
      ordering_direction: 'desc',
    });
    assert.deepEqual(updated.title_field, { type: 'field', id: title.id });
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { title_field: { type: 'field', id: flag.id } }),
      'INVALID_FIELD',
      { field: 'title_field', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { excerpt_field: { type: 'field', id: foreign.id } }),
      'INVALID_FIELD',
      { field: 'excerpt_field', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { ordering_meta: 'created_at' }),
      'INVALID_FIELD',
      { field: 'ordering_meta', code: 'VALIDATION_INVALID' },
    );
  });

  test('destroying a field the model points at clears the relationship and its direction', async () => {
    const model = await buildModel(client);
    const title = await stringField(model.id, 'title');
    await client.itemTypes.update(model.id, {
      title_field: { type: 'field', id: title.id },
      ordering_field: { type: 'field', id: title.id },
      ordering_direction: 'desc',
    });
    await client.fields.destroy(title.id);
    const after = await client.itemTypes.find(model.id);
    assert.equal(after.title_field, null);
    assert.equal(after.ordering_field, null);
    assert.equal(after.ordering_direction, null);
    const [last] = (await eventsOf(server.db, model.id)).slice(-1);
    const entity = last?.entity as { attributes: { ordering_direction: unknown } } | undefined;
    assert.equal(entity?.attributes.ordering_direction, null);
  });

  test('a type change the model relationship cannot keep clears it', async () => {
    const model = await buildModel(client);
    const title = await stringField(model.id, 'title');
    await client.itemTypes.update(model.id, { title_field: { type: 'field', id: title.id } });
    await client.fields.update(title.id, { field_type: 'text' });
    assert.equal((await client.itemTypes.find(model.id)).title_field, null);
  });

  test('a field a slug is generated from cannot be destroyed', async () => {
    const model = await buildModel(client);
    const title = await stringField(model.id, 'title');
    const slug = await client.fields.create(model.id, {
      label: 'Slug',
      api_key: 'slug',
      field_type: 'slug',
      validators: { slug_title_field: { title_field_id: title.id } },
    });
    await rejectsWithApiError(client.fields.destroy(title.id), 'REQUIRED_BY_ASSOCIATION');
    assert.equal((await client.fields.find(title.id)).id, title.id);
    await client.fields.destroy(slug.id);
    await client.fields.destroy(title.id);
    assert.deepEqual(await client.fields.list(model.id), []);
  });

  test('referencing and related list the fields that link to a model', async () => {
    const target = await buildModel(client);
    const source = await buildModel(client);
    const link = await client.fields.create(source.id, {
      label: 'Author',
      api_key: 'author',
      field_type: 'link',
      validators: { item_item_type: { item_types: [target.id] } },
    });
    await stringField(source.id, 'plain');
    const own = await client.fields.create(target.id, {
      label: 'Related',
      api_key: 'related',
      field_type: 'links',
      validators: { items_item_type: { item_types: [source.id] } },
    });
    assert.deepEqual(
      (await client.fields.referencing(target.api_key)).map((f) => f.id),
      [link.id],
    );
    assert.deepEqual(
      (await client.fields.related(target.id)).map((f) => f.id),
      [link.id, own.id],
    );
  });
});

describe('fields as asynchronous jobs', () => {
  const jobs = useTestServer({ asyncJobs: true });

  test('with async jobs on, create, update and destroy answer 202 and the client polls', async () => {
    const jobClient = jobs.client();
    const model = await jobClient.itemTypes.create({ name: 'Jobs', api_key: 'jobs' });
    const raw = await jobs.request('POST', `/item-types/${model.id}/fields`, {
      data: { type: 'field', attributes: { label: 'A', api_key: 'a1', field_type: 'string' } },
    });
    assert.equal(raw.status, 202);
    assert.equal((raw.body as { data: { type: string } }).data.type, 'job');
    const updated = await jobClient.fields.update('jobs::a1', { label: 'B' });
    assert.equal(updated.label, 'B');
    await jobClient.fields.destroy(updated.id);
    assert.deepEqual(await jobClient.fields.list(model.id), []);
  });
});
