import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateId } from '@datocms/cma-client-node';
import { errorCodesOf, rejectsWithApiError } from '../support/api-errors.ts';
import { buildModel } from '../support/factories.ts';
import { eventsOf } from '../support/fixtures.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();
async function stringField(itemTypeId: string, apiKey: string, fieldset?: string) {
  return client.fields.create(itemTypeId, {
    label: apiKey,
    api_key: apiKey,
    field_type: 'string',
    ...(fieldset ? { fieldset: { type: 'fieldset' as const, id: fieldset } } : {}),
  });
}

/** The top level of a model's form, as [kind:api_key-or-title, position]. */
async function topLevel(itemTypeId: string): Promise<[string, number][]> {
  const [fields, fieldsets] = await Promise.all([
    client.fields.list(itemTypeId),
    client.fieldsets.list(itemTypeId),
  ]);
  return [
    ...fieldsets.map((f): [string, number] => [`set:${f.title}`, f.position]),
    ...fields
      .filter((f) => f.fieldset === null)
      .map((f): [string, number] => [`field:${f.api_key}`, f.position]),
  ].sort((a, b) => a[1] - b[1]);
}

describe('fieldsets through the official client', () => {
  test('create, find, list, update and destroy', async () => {
    const model = await buildModel(client);
    const raw = await client.fieldsets.rawCreate(model.id, {
      data: { type: 'fieldset', attributes: { title: 'SEO' } },
    });
    assert.deepEqual(raw.data.attributes, {
      title: 'SEO',
      hint: null,
      position: 1,
      collapsible: false,
      start_collapsed: false,
    });
    assert.deepEqual(raw.data.relationships, {
      item_type: { data: { type: 'item_type', id: model.id } },
    });
    const id = generateId();
    const second = await client.fieldsets.create(model.api_key, {
      id,
      title: 'Media',
      hint: 'Images',
      collapsible: true,
      start_collapsed: true,
    });
    assert.equal(second.id, id);
    assert.equal(second.position, 2);
    assert.deepEqual(await client.fieldsets.find(id), second);
    assert.deepEqual(
      (await client.fieldsets.list(model.id)).map((f) => f.title),
      ['SEO', 'Media'],
    );
    assert.deepEqual(
      (await client.itemTypes.find(model.id)).fieldsets.map((f) => f.id),
      [raw.data.id, id],
    );

    const renamed = await client.fieldsets.update(id, { title: 'Pictures' });
    assert.equal(renamed.title, 'Pictures');
    assert.equal(renamed.hint, 'Images', 'omitted attributes stay');
    assert.equal(renamed.collapsible, true);
    const cleared = await client.fieldsets.update(id, { hint: null, collapsible: false });
    assert.equal(cleared.hint, null);
    assert.equal(cleared.collapsible, false);
    assert.equal(cleared.start_collapsed, true);
    const moved = await client.fieldsets.update(id, { position: 1 });
    assert.equal(moved.position, 1);
    assert.equal((await client.fieldsets.find(raw.data.id)).position, 2);
    // The client spreads a whole fieldset back into update; it filters it to the whitelist.
    const roundTrip = await client.fieldsets.update(id, { ...moved });
    assert.deepEqual(roundTrip, moved);

    const destroyed = await client.fieldsets.destroy(id);
    assert.equal(destroyed.id, id);
    await rejectsWithApiError(client.fieldsets.find(id), 'NOT_FOUND');
    assert.equal((await client.fieldsets.find(raw.data.id)).position, 1);
  });

  test('destroying a fieldset moves its fields to the end of the top level', async () => {
    const model = await buildModel(client);
    await stringField(model.id, 'first');
    const group = await client.fieldsets.create(model.id, { title: 'Group' });
    await stringField(model.id, 'last');
    await stringField(model.id, 'inner_a', group.id);
    await stringField(model.id, 'inner_b', group.id);
    assert.deepEqual(await topLevel(model.id), [
      ['field:first', 1],
      ['set:Group', 2],
      ['field:last', 3],
    ]);
    await client.fieldsets.destroy(group.id);
    assert.deepEqual(await topLevel(model.id), [
      ['field:first', 1],
      ['field:last', 2],
      ['field:inner_a', 3],
      ['field:inner_b', 4],
    ]);
    const fields = await client.fields.list(model.id);
    assert.ok(fields.every((f) => f.fieldset === null));
  });

  test('bad input is refused and changes nothing', async () => {
    const model = await buildModel(client);
    const fieldset = await client.fieldsets.create(model.id, { title: 'Kept', hint: 'h' });
    const eventsBefore = (await eventsOf(server.db, model.id)).length;
    await rejectsWithApiError(
      client.fieldsets.update(fieldset.id, { title: ' ' }),
      'INVALID_FIELD',
      {
        field: 'title',
        code: 'VALIDATION_REQUIRED',
      },
    );
    await rejectsWithApiError(
      client.fieldsets.update(fieldset.id, { position: -1 }),
      'INVALID_FORMAT',
    );
    await rejectsWithApiError(client.fieldsets.create(model.id, { title: '' }), 'INVALID_FIELD', {
      field: 'title',
      code: 'VALIDATION_REQUIRED',
    });
    await rejectsWithApiError(
      client.fieldsets.create(model.id, { id: fieldset.id, title: 'Again' }),
      'INVALID_FIELD',
      { field: 'id', code: 'VALIDATION_UNIQUENESS' },
    );
    await rejectsWithApiError(client.fieldsets.update('nope', { title: 'X' }), 'NOT_FOUND');
    await rejectsWithApiError(client.fieldsets.list('no_such_model'), 'NOT_FOUND');
    const unknown = await server.request('PUT', `/fieldsets/${fieldset.id}`, {
      data: { type: 'fieldset', id: fieldset.id, attributes: { api_key: 'x' } },
    });
    assert.deepEqual(errorCodesOf(unknown.body), ['INVALID_FORMAT']);
    assert.deepEqual(await client.fieldsets.list(model.id), [fieldset]);
    assert.equal((await eventsOf(server.db, model.id)).length, eventsBefore);
  });

  test('create, update and destroy each write the model update event', async () => {
    const model = await buildModel(client);
    const start = (await eventsOf(server.db, model.id)).length;
    const fieldset = await client.fieldsets.create(model.id, { title: 'Group' });
    await client.fieldsets.update(fieldset.id, { title: 'Renamed' });
    await client.fieldsets.update(fieldset.id, {});
    await client.fieldsets.destroy(fieldset.id);
    const events = (await eventsOf(server.db, model.id)).slice(start);
    assert.deepEqual(
      events.map((e) => [e.entity_type, e.event_type]),
      [
        ['item_type', 'update'],
        ['item_type', 'update'],
        ['item_type', 'update'],
      ],
    );
    const fieldsetIds = (entity: unknown) =>
      (
        entity as { relationships: { fieldsets: { data: { id: string }[] } } }
      ).relationships.fieldsets.data.map((f) => f.id);
    assert.deepEqual(fieldsetIds(events[0]?.previous_entity), []);
    assert.deepEqual(fieldsetIds(events[0]?.entity), [fieldset.id]);
    assert.deepEqual(fieldsetIds(events[2]?.entity), []);
  });
});

describe('reorder-fields-and-fieldsets', () => {
  test('places fields and fieldsets at once, moving fields between groups', async () => {
    const model = await buildModel(client);
    const a = await stringField(model.id, 'a1');
    const group = await client.fieldsets.create(model.id, { title: 'Group' });
    const b = await stringField(model.id, 'b1');
    const c = await stringField(model.id, 'c1', group.id);
    const result = await client.itemTypes.rawReorderFieldsAndFieldsets(model.id, {
      data: [
        { type: 'fieldset', id: group.id, attributes: { position: 1 } },
        {
          type: 'field',
          id: a.id,
          attributes: { position: 1 },
          relationships: { fieldset: { data: { type: 'fieldset', id: group.id } } },
        },
        {
          type: 'field',
          id: c.id,
          attributes: { position: 3 },
          relationships: { fieldset: { data: null } },
        },
      ],
    });
    assert.deepEqual(
      result.data.map((r) => [r.id, r.attributes.position]),
      [
        [group.id, 1],
        [a.id, 1],
        [c.id, 3],
      ],
    );
    assert.deepEqual(await topLevel(model.id), [
      ['set:Group', 1],
      ['field:b1', 2],
      ['field:c1', 3],
    ]);
    const inGroup = (await client.fields.list(model.id)).filter((f) => f.fieldset?.id === group.id);
    assert.deepEqual(
      inGroup.map((f) => [f.id, f.position]),
      [[a.id, 1]],
    );
    assert.equal((await client.fields.find(b.id)).position, 2);
    const [last] = (await eventsOf(server.db, model.id)).slice(-1);
    assert.equal(last?.event_type, 'update');
  });

  test('duplicate positions, bad positions, foreign and unknown ids are refused and change nothing', async () => {
    const model = await buildModel(client);
    const other = await buildModel(client);
    const foreignSet = await client.fieldsets.create(other.id, { title: 'Elsewhere' });
    const a = await stringField(model.id, 'a1');
    const b = await stringField(model.id, 'b1');
    const before = await topLevel(model.id);
    const eventsBefore = (await eventsOf(server.db, model.id)).length;
    const field = (id: string, position: number) => ({
      type: 'field' as const,
      id,
      attributes: { position },
      relationships: { fieldset: { data: null } },
    });
    await rejectsWithApiError(
      client.itemTypes.rawReorderFieldsAndFieldsets(model.id, {
        data: [field(a.id, 1), field(b.id, 1)],
      }),
      'DUPLICATE_POSITIONS_FOUND',
    );
    await rejectsWithApiError(
      client.itemTypes.rawReorderFieldsAndFieldsets(model.id, { data: [field(a.id, -1)] }),
      'INVALID_FORMAT',
    );
    await rejectsWithApiError(
      client.itemTypes.rawReorderFieldsAndFieldsets(model.id, { data: [field(generateId(), 1)] }),
      'NOT_FOUND',
    );
    await rejectsWithApiError(
      client.itemTypes.rawReorderFieldsAndFieldsets(model.id, {
        data: [
          {
            ...field(a.id, 1),
            relationships: { fieldset: { data: { type: 'fieldset', id: foreignSet.id } } },
          },
        ],
      }),
      'INVALID_FIELD',
      { field: 'fieldset', code: 'VALIDATION_INVALID' },
    );
    const wrongType = await server.request(
      'POST',
      `/item-types/${model.id}/reorder-fields-and-fieldsets`,
      {
        data: [{ type: 'item_type', id: a.id, attributes: { position: 1 } }],
      },
    );
    assert.deepEqual(errorCodesOf(wrongType.body), ['INVALID_TYPE']);
    assert.deepEqual(await topLevel(model.id), before);
    assert.equal((await eventsOf(server.db, model.id)).length, eventsBefore);
  });
});
