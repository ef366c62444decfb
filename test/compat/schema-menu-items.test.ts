import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateId } from '../../src/domain/ids.ts';
import { errorCodesOf, rejectsWithApiError } from '../support/api-errors.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

const ref = (id: string) => ({ type: 'schema_menu_item' as const, id });

/** id → [parent id, position] of every schema menu item. */
async function layout(): Promise<Record<string, [string | null, number]>> {
  const items = await client.schemaMenuItems.list();
  return Object.fromEntries(
    items.map((item) => [item.id, [item.parent?.id ?? null, item.position]]),
  );
}

/** Removes every folder (items not tied to a model). */
async function clearFolders(): Promise<void> {
  for (const item of await client.schemaMenuItems.list()) {
    if (!item.item_type) await client.schemaMenuItems.destroy(item.id);
  }
}

describe('schema menu items through the official client', () => {
  test('create with defaults, find, update, list, destroy', async () => {
    assert.deepEqual(await client.schemaMenuItems.list(), []);
    const created = await client.schemaMenuItems.create({ label: 'Content', kind: 'item_type' });
    assert.deepEqual(
      { ...created, id: undefined },
      {
        id: undefined,
        type: 'schema_menu_item',
        label: 'Content',
        position: 1,
        kind: 'item_type',
        item_type: null,
        parent: null,
        children: [],
      },
    );
    assert.deepEqual(await client.schemaMenuItems.find(created.id), created);
    const updated = await client.schemaMenuItems.update(created.id, {
      label: 'Blocks',
      kind: 'modular_block',
    });
    assert.equal(updated.label, 'Blocks');
    assert.equal(updated.kind, 'modular_block', 'a folder may change section');
    const unlabeled = await client.schemaMenuItems.create({ label: null, kind: 'item_type' });
    assert.equal(unlabeled.label, null);
    assert.equal(unlabeled.position, 2);

    const listed = await client.schemaMenuItems.list({ filter: { ids: unlabeled.id } });
    assert.deepEqual(
      listed.map((item) => item.id),
      [unlabeled.id],
    );
    const destroyed = await client.schemaMenuItems.destroy(created.id);
    assert.equal(destroyed.label, 'Blocks');
    await rejectsWithApiError(client.schemaMenuItems.find(created.id), 'NOT_FOUND');
    assert.equal((await client.schemaMenuItems.find(unlabeled.id)).position, 1);
    await clearFolders();
  });

  test('client-supplied ids and attribute checks', async () => {
    const id = generateId();
    assert.equal(
      (await client.schemaMenuItems.create({ id, label: 'F', kind: 'item_type' })).id,
      id,
    );
    const before = await client.schemaMenuItems.list();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ id, label: 'G', kind: 'item_type' }, 'id', 'VALIDATION_UNIQUENESS'],
      [{ id: '123abc', label: 'G', kind: 'item_type' }, 'id', 'VALIDATION_INVALID'],
      [{ label: ' ', kind: 'item_type' }, 'label', 'VALIDATION_REQUIRED'],
      [{ label: 'G', kind: 'item_type', position: -1 }, 'position', 'VALIDATION_INVALID'],
      [
        { label: 'G', kind: 'item_type', parent: ref(generateId()) },
        'parent',
        'VALIDATION_INVALID',
      ],
    ];
    for (const [body, field, code] of cases) {
      await rejectsWithApiError(
        client.schemaMenuItems.create(body as Parameters<typeof client.schemaMenuItems.create>[0]),
        'INVALID_FIELD',
        { field, code, record_type: 'SchemaMenuItem' },
      );
    }
    const badKind = await server.request('POST', '/schema-menu-items', {
      data: { type: 'schema_menu_item', attributes: { label: 'G', kind: 'folder' } },
    });
    assert.equal(badKind.status, 422);
    assert.deepEqual(errorCodesOf(badKind.body), ['INVALID_FORMAT']);
    assert.deepEqual(await client.schemaMenuItems.list(), before);
    await clearFolders();
  });

  test('every model and block gets one, with kind following modular_block', async () => {
    const model = await client.itemTypes.create(
      { name: 'Article', api_key: 'article' },
      { skip_menu_item_creation: true },
    );
    const block = await client.itemTypes.create({
      name: 'Gallery',
      api_key: 'gallery',
      modular_block: true,
    });
    const items = await client.schemaMenuItems.list();
    const forModel = items.find((item) => item.item_type?.id === model.id);
    const forBlock = items.find((item) => item.item_type?.id === block.id);
    assert.equal(forModel?.kind, 'item_type');
    assert.equal(forModel?.label, null);
    assert.equal(forBlock?.kind, 'modular_block');

    await client.itemTypes.destroy(model.id, { skip_menu_items_deletion: true });
    await rejectsWithApiError(client.schemaMenuItems.find(forModel?.id ?? ''), 'NOT_FOUND');
    await client.itemTypes.destroy(block.id);
  });

  test('items tied to a model cannot be created, destroyed or change kind', async () => {
    const model = await client.itemTypes.create({ name: 'Event', api_key: 'event' });
    const linked = (await client.schemaMenuItems.list()).find(
      (item) => item.item_type?.id === model.id,
    );
    assert.ok(linked);
    const code = 'CANNOT_CREATE_OR_DESTROY_SCHEMA_MENU_ITEM_LINKED_TO_ITEM_TYPE';
    await rejectsWithApiError(
      client.schemaMenuItems.create({
        label: null,
        kind: 'item_type',
        item_type: { type: 'item_type', id: model.id },
      }),
      code,
    );
    await rejectsWithApiError(client.schemaMenuItems.destroy(linked.id), code);
    await rejectsWithApiError(
      client.schemaMenuItems.update(linked.id, { kind: 'modular_block' }),
      'KIND_CANNOT_BE_CHANGED',
    );
    await rejectsWithApiError(
      client.schemaMenuItems.update(linked.id, { item_type: null }),
      'INVALID_FIELD',
      {
        field: 'item_type',
        code: 'VALIDATION_INVALID',
      },
    );

    const folder = await client.schemaMenuItems.create({ label: 'Events', kind: 'item_type' });
    const moved = await client.schemaMenuItems.update(linked.id, {
      ...linked,
      parent: ref(folder.id),
    });
    assert.deepEqual(moved.parent, ref(folder.id), 'echoing unchanged members is accepted');
    await client.itemTypes.destroy(model.id);
    await clearFolders();
  });

  test('children can be written on update; nesting refuses cycles', async () => {
    const folder = await client.schemaMenuItems.create({ label: 'Folder', kind: 'item_type' });
    const a = await client.schemaMenuItems.create({ label: 'A', kind: 'item_type' });
    const b = await client.schemaMenuItems.create({ label: 'B', kind: 'item_type' });
    const c = await client.schemaMenuItems.create({
      label: 'C',
      kind: 'item_type',
      parent: ref(folder.id),
    });

    const updated = await client.schemaMenuItems.update(folder.id, {
      children: [ref(b.id), ref(a.id)],
    });
    assert.deepEqual(updated.children, [ref(b.id), ref(a.id)]);
    assert.deepEqual(await layout(), {
      [folder.id]: [null, 1],
      [a.id]: [folder.id, 2],
      [b.id]: [folder.id, 1],
      [c.id]: [null, 2],
    });

    const before = await layout();
    await rejectsWithApiError(
      client.schemaMenuItems.update(folder.id, { parent: ref(a.id) }),
      'INVALID_FIELD',
      {
        field: 'parent',
        code: 'VALIDATION_INVALID',
      },
    );
    await rejectsWithApiError(
      client.schemaMenuItems.update(a.id, { children: [ref(folder.id)] }),
      'INVALID_FIELD',
      {
        field: 'children',
        code: 'VALIDATION_INVALID',
      },
    );
    await rejectsWithApiError(
      client.schemaMenuItems.update(a.id, { children: [ref(a.id)] }),
      'INVALID_FIELD',
      {
        field: 'children',
        code: 'VALIDATION_INVALID',
      },
    );
    assert.deepEqual(await layout(), before);

    await client.schemaMenuItems.destroy(folder.id);
    assert.deepEqual(await layout(), {
      [c.id]: [null, 1],
      [b.id]: [null, 2],
      [a.id]: [null, 3],
    });
    await clearFolders();
  });

  test('reorder applies every move at once and refuses duplicate positions', async () => {
    const a = await client.schemaMenuItems.create({ label: 'A', kind: 'item_type' });
    const b = await client.schemaMenuItems.create({ label: 'B', kind: 'item_type' });
    const c = await client.schemaMenuItems.create({ label: 'C', kind: 'item_type' });
    const result = await client.schemaMenuItems.reorder([
      { id: c.id, type: 'schema_menu_item', position: 1, parent: ref(a.id) },
      { id: b.id, type: 'schema_menu_item', position: 2, parent: ref(a.id) },
      { id: a.id, type: 'schema_menu_item', position: 1, parent: null },
    ]);
    assert.deepEqual(
      result.map((item) => item.id),
      [c.id, b.id, a.id],
    );
    assert.deepEqual(result[2]?.children, [ref(c.id), ref(b.id)]);

    const before = await layout();
    await rejectsWithApiError(
      client.schemaMenuItems.reorder([
        { id: b.id, position: 1, parent: ref(a.id) },
        { id: c.id, position: 1, parent: ref(a.id) },
      ]),
      'DUPLICATE_POSITIONS_FOUND',
    );
    await rejectsWithApiError(
      client.schemaMenuItems.reorder([{ id: a.id, position: 1, parent: ref(c.id) }]),
      'INVALID_FIELD',
      { field: 'parent', code: 'VALIDATION_INVALID' },
    );
    const wrongType = await server.request('POST', '/schema-menu-items/reorder', {
      data: [
        {
          type: 'menu_item',
          id: a.id,
          attributes: { position: 1 },
          relationships: { parent: { data: null } },
        },
      ],
    });
    assert.equal(wrongType.status, 422);
    assert.deepEqual(errorCodesOf(wrongType.body), ['INVALID_TYPE']);
    assert.deepEqual(await layout(), before);
    await clearFolders();
  });
});
