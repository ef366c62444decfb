import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { buildField, buildModel, itemTypeRef } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

// Records of sortable and tree models: placing one at a position shifts its siblings from
// there down, taking one out closes its gap, as fields and menu items do.

const server = useTestServer();
const client = server.client();

async function positionedModel(flags: { sortable?: boolean; tree?: boolean }) {
  const model = await buildModel(client, flags);
  await buildField(client, { itemTypeId: model.id, api_key: 'title' });
  return model;
}

async function create(modelId: string, title: string, extra: Record<string, unknown> = {}) {
  return client.items.create({ item_type: itemTypeRef(modelId), title, ...extra } as never);
}

/** Titles in position order, each with its position, for the records given by `filter`. */
async function order(modelId: string, parentId?: string | null): Promise<[string, number][]> {
  const records = await client.items.list({ filter: { type: modelId }, page: { limit: 500 } });
  return records
    .filter((record) => parentId === undefined || (record.parent_id ?? null) === parentId)
    .map((record) => [record.title as string, record.position as number] as [string, number])
    .sort((a, b) => a[1] - b[1]);
}

describe('positions of records of sortable and tree models', () => {
  test('moving a record to position 1 shifts the others down; no two share a position', async () => {
    const model = await positionedModel({ sortable: true });
    await create(model.id, 'a');
    await create(model.id, 'b');
    const c = await create(model.id, 'c');
    await client.items.update(c.id, { position: 1 } as never);
    assert.deepEqual(await order(model.id), [
      ['c', 1],
      ['a', 2],
      ['b', 3],
    ]);
    await client.items.update(c.id, { position: 3 } as never);
    assert.deepEqual(await order(model.id), [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
  });

  test('a record created at a position shifts the others; a destroyed one closes its gap', async () => {
    const model = await positionedModel({ sortable: true });
    await create(model.id, 'a');
    const b = await create(model.id, 'b');
    await create(model.id, 'first', { position: 1 });
    assert.deepEqual(await order(model.id), [
      ['first', 1],
      ['a', 2],
      ['b', 3],
    ]);
    await create(model.id, 'last');
    await client.items.destroy(b.id);
    assert.deepEqual(await order(model.id), [
      ['first', 1],
      ['a', 2],
      ['last', 3],
    ]);
  });

  test('tree: siblings are the children of one parent; moving to another parent closes the gap left', async () => {
    const model = await positionedModel({ tree: true });
    const root = await create(model.id, 'root');
    const other = await create(model.id, 'other');
    const x = await create(model.id, 'x', { parent_id: root.id });
    await create(model.id, 'y', { parent_id: root.id });
    await create(model.id, 'z', { parent_id: root.id });
    await create(model.id, 'p', { parent_id: other.id });
    await client.items.update(x.id, { parent_id: other.id, position: 1 } as never);
    assert.deepEqual(await order(model.id, root.id), [
      ['y', 1],
      ['z', 2],
    ]);
    assert.deepEqual(await order(model.id, other.id), [
      ['x', 1],
      ['p', 2],
    ]);
    await client.items.update(x.id, { parent_id: root.id } as never);
    assert.deepEqual(await order(model.id, root.id), [
      ['y', 1],
      ['z', 2],
      ['x', 3],
    ]);
    assert.deepEqual(await order(model.id, other.id), [['p', 1]]);
    assert.deepEqual(await order(model.id, null), [
      ['root', 1],
      ['other', 2],
    ]);
  });

  test('concurrent moves and creates end with every position taken once', async () => {
    const model = await positionedModel({ sortable: true });
    const records = [];
    for (const title of ['a', 'b', 'c', 'd', 'e', 'f']) records.push(await create(model.id, title));
    const results = await Promise.allSettled([
      ...records
        .slice(0, 5)
        .map((record, index) =>
          client.items.update(record.id, { position: (index % 3) + 1 } as never),
        ),
      create(model.id, 'g', { position: 1 }),
      create(model.id, 'h', { position: 2 }),
      client.items.destroy(records[5]?.id as string),
    ]);
    for (const result of results)
      assert.equal(result.status, 'fulfilled', String((result as PromiseRejectedResult).reason));
    const positions = (await order(model.id)).map(([, position]) => position);
    assert.deepEqual(positions, [1, 2, 3, 4, 5, 6, 7]);
  });

  test('a position that is not an integer from 0 is a 422, not a 500', async () => {
    const model = await positionedModel({ sortable: true });
    const record = await create(model.id, 'a');
    for (const position of [1.5, -1, 2 ** 40, '2'])
      await rejectsWithApiError(
        client.items.update(record.id, { position } as never),
        'INVALID_FIELD',
        { field: 'position' },
      );
    await rejectsWithApiError(create(model.id, 'b', { position: -3 }), 'INVALID_FIELD', {
      field: 'position',
    });
    assert.deepEqual(await order(model.id), [['a', 1]]);
  });
});
