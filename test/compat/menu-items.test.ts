import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateId } from '../../src/domain/ids.ts';
import { errorCodesOf, rejectsWithApiError } from '../support/api-errors.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

const ref = (id: string) => ({ type: 'menu_item' as const, id });

/** id → [parent id, position] of every menu item. */
async function layout(): Promise<Record<string, [string | null, number]>> {
  const items = await client.menuItems.list();
  return Object.fromEntries(
    items.map((item) => [item.id, [item.parent?.id ?? null, item.position]]),
  );
}

async function clearMenu(): Promise<void> {
  for (const item of await client.menuItems.list()) {
    await client.menuItems.destroy(item.id).catch(() => undefined);
  }
}

describe('menu items through the official client', () => {
  test('create with defaults, find, update, list, destroy', async () => {
    assert.deepEqual(await client.menuItems.list(), [], 'a fresh project has no menu items');
    const created = await client.menuItems.create({ label: 'Home' });
    assert.deepEqual(
      { ...created, id: undefined },
      {
        id: undefined,
        type: 'menu_item',
        label: 'Home',
        external_url: null,
        position: 1,
        open_in_new_tab: false,
        item_type: null,
        item_type_filter: null,
        parent: null,
        children: [],
      },
    );
    assert.deepEqual(await client.menuItems.find(created.id), created);

    const updated = await client.menuItems.update(created.id, {
      label: 'Docs',
      external_url: 'https://example.com/docs',
      open_in_new_tab: true,
    });
    assert.equal(updated.label, 'Docs');
    assert.equal(updated.external_url, 'https://example.com/docs');
    assert.equal(updated.open_in_new_tab, true);
    assert.equal(
      (await client.menuItems.update(created.id, { label: 'Site' })).external_url,
      'https://example.com/docs',
      'omitted attributes stay unchanged',
    );

    assert.deepEqual(
      (await client.menuItems.list()).map((item) => item.label),
      ['Site'],
    );
    const destroyed = await client.menuItems.destroy(created.id);
    assert.equal(destroyed.label, 'Site');
    await rejectsWithApiError(client.menuItems.find(created.id), 'NOT_FOUND');
  });

  test('raw create answers 201 and raw delete 200 with the deleted item', async () => {
    const created = await server.request('POST', '/menu-items', {
      data: { type: 'menu_item', attributes: { label: 'Raw' } },
    });
    assert.equal(created.status, 201);
    const id = (created.body as { data: { id: string } }).data.id;
    const deleted = await server.request('DELETE', `/menu-items/${id}`);
    assert.equal(deleted.status, 200);
    assert.equal((deleted.body as { data: { id: string } }).data.id, id);

    const wrongType = await server.request('POST', '/menu-items', {
      data: { type: 'item_type', attributes: { label: 'X' } },
    });
    assert.equal(wrongType.status, 422);
    assert.deepEqual(errorCodesOf(wrongType.body), ['INVALID_TYPE']);
    const unknown = await server.request('POST', '/menu-items', {
      data: { type: 'menu_item', attributes: { label: 'X', color: 'red' } },
    });
    assert.equal(unknown.status, 422);
    assert.deepEqual(errorCodesOf(unknown.body), ['INVALID_FORMAT']);
  });

  test('client-supplied ids are kept, checked and unique', async () => {
    const id = generateId();
    assert.equal((await client.menuItems.create({ id, label: 'Mine' })).id, id);
    await rejectsWithApiError(client.menuItems.create({ id, label: 'Again' }), 'INVALID_FIELD', {
      field: 'id',
      code: 'VALIDATION_UNIQUENESS',
    });
    await rejectsWithApiError(
      client.menuItems.create({ id: 'not-an-id', label: 'Bad' }),
      'INVALID_FIELD',
      {
        field: 'id',
        code: 'VALIDATION_INVALID',
      },
    );
    await clearMenu();
  });

  test('filter[ids] narrows the list', async () => {
    const a = await client.menuItems.create({ label: 'A' });
    const b = await client.menuItems.create({ label: 'B' });
    await client.menuItems.create({ label: 'C' });
    const listed = await client.menuItems.list({ filter: { ids: `${a.id},${b.id}` } });
    assert.deepEqual(listed.map((item) => item.id).sort(), [a.id, b.id].sort());
    const raw = await server.request('GET', `/menu-items?filter[ids]=${a.id}`);
    assert.deepEqual(
      (raw.body as { data: { id: string }[] }).data.map((item) => item.id),
      [a.id],
    );
    await clearMenu();
  });

  test('nesting shifts siblings, refuses cycles and re-parents on delete', async () => {
    const root = await client.menuItems.create({ label: 'Root' });
    const other = await client.menuItems.create({ label: 'Other' });
    const c1 = await client.menuItems.create({ label: 'C1', parent: ref(root.id) });
    const c2 = await client.menuItems.create({ label: 'C2', parent: ref(root.id) });
    const c0 = await client.menuItems.create({ label: 'C0', parent: ref(root.id), position: 1 });
    assert.deepEqual([c1.position, c2.position, c0.position], [1, 2, 1]);
    assert.deepEqual(
      (await client.menuItems.find(root.id)).children.map((child) => child.id),
      [c0.id, c1.id, c2.id],
    );
    const far = await client.menuItems.create({ label: 'Far', parent: ref(root.id), position: 99 });
    assert.equal(far.position, 99, 'a position past the end is kept: it sorts last');

    await client.menuItems.update(c2.id, { position: 1 });
    await client.menuItems.update(c0.id, { parent: null });
    assert.deepEqual(await layout(), {
      [root.id]: [null, 1],
      [other.id]: [null, 2],
      [c0.id]: [null, 3],
      [c2.id]: [root.id, 1],
      [c1.id]: [root.id, 2],
      [far.id]: [root.id, 98],
    });

    const before = await layout();
    await rejectsWithApiError(
      client.menuItems.update(root.id, { parent: ref(c1.id) }),
      'INVALID_FIELD',
      {
        field: 'parent',
        code: 'VALIDATION_INVALID',
      },
    );
    await rejectsWithApiError(
      client.menuItems.update(root.id, { parent: ref(root.id) }),
      'INVALID_FIELD',
      {
        field: 'parent',
        code: 'VALIDATION_INVALID',
      },
    );
    await rejectsWithApiError(
      client.menuItems.create({ label: 'Lost', parent: ref(generateId()) }),
      'INVALID_FIELD',
      { field: 'parent', code: 'VALIDATION_INVALID' },
    );
    assert.deepEqual(await layout(), before, 'refused changes change nothing');

    const deleted = await client.menuItems.destroy(root.id);
    assert.deepEqual(
      deleted.children.map((child) => child.id),
      [c2.id, c1.id, far.id],
    );
    assert.deepEqual(await layout(), {
      [other.id]: [null, 1],
      [c0.id]: [null, 2],
      [c2.id]: [null, 3],
      [c1.id]: [null, 4],
      [far.id]: [null, 5],
    });
    await clearMenu();
  });

  test('validation failures come back as INVALID_FIELD and change nothing', async () => {
    const block = await client.itemTypes.create({
      name: 'Quote',
      api_key: 'quote',
      modular_block: true,
    });
    const before = await client.menuItems.list();
    const cases: [Record<string, unknown>, string][] = [
      [{ label: '  ' }, 'label'],
      [{ label: 'X', external_url: 'ftp://example.com' }, 'external_url'],
      [{ label: 'X', external_url: '/relative' }, 'external_url'],
      [{ label: 'X', position: -1 }, 'position'],
      [{ label: 'X', item_type: { type: 'item_type', id: block.id } }, 'item_type'],
      [{ label: 'X', item_type: { type: 'item_type', id: generateId() } }, 'item_type'],
      [
        { label: 'X', item_type_filter: { type: 'item_type_filter', id: generateId() } },
        'item_type_filter',
      ],
    ];
    for (const [body, field] of cases) {
      const code =
        field === 'label'
          ? 'VALIDATION_REQUIRED'
          : field === 'external_url'
            ? 'VALIDATION_FORMAT'
            : 'VALIDATION_INVALID';
      await rejectsWithApiError(
        client.menuItems.create(body as Parameters<typeof client.menuItems.create>[0]),
        'INVALID_FIELD',
        { field, code, record_type: 'MenuItem' },
      );
    }
    assert.deepEqual(await client.menuItems.list(), before);
    await client.itemTypes.destroy(block.id);
  });

  test('models get a menu item, blocks do not; destroying a model removes it unless told not to', async () => {
    const post = await client.itemTypes.create({ name: 'Post', api_key: 'post' });
    const block = await client.itemTypes.create({
      name: 'Cta',
      api_key: 'cta',
      modular_block: true,
    });
    const kept = await client.itemTypes.create({ name: 'Page', api_key: 'page' });
    const menu = await client.menuItems.list();
    const postItem = menu.find((item) => item.item_type?.id === post.id);
    assert.equal(postItem?.label, 'Post');
    assert.ok(!menu.some((item) => item.item_type?.id === block.id));

    const linked = await client.menuItems.create({
      label: 'Posts again',
      item_type: { type: 'item_type', id: post.id },
      item_type_filter: null,
    });
    assert.deepEqual(linked.item_type, { type: 'item_type', id: post.id });

    await client.itemTypes.destroy(post.id);
    await client.itemTypes.destroy(kept.id, { skip_menu_items_deletion: true });
    const after = await client.menuItems.list();
    assert.ok(!after.some((item) => item.id === postItem?.id || item.id === linked.id));
    const orphan = after.find((item) => item.label === 'Page');
    assert.ok(orphan, 'the menu item survives with skip_menu_items_deletion');
    assert.equal(orphan.item_type, null);
    await client.menuItems.create({ label: 'Next' });
    assert.deepEqual(
      Object.values(await layout())
        .map(([, position]) => position)
        .sort(),
      [1, 2],
      'the next write closes the gap the model left',
    );
    await client.itemTypes.destroy(block.id);
    await clearMenu();
  });

  test('reorder moves many items at once and answers them in request order', async () => {
    const a = await client.menuItems.create({ label: 'A' });
    const b = await client.menuItems.create({ label: 'B' });
    const c = await client.menuItems.create({ label: 'C' });
    const result = await client.menuItems.reorder([
      { id: c.id, type: 'menu_item', position: 1, parent: null },
      { id: b.id, type: 'menu_item', position: 1, parent: ref(a.id) },
    ]);
    assert.deepEqual(
      result.map((item) => [item.id, item.parent?.id ?? null, item.position]),
      [
        [c.id, null, 1],
        [b.id, a.id, 1],
      ],
    );
    assert.deepEqual(await layout(), {
      [a.id]: [null, 2],
      [b.id]: [a.id, 1],
      [c.id]: [null, 1],
    });

    const before = await layout();
    await rejectsWithApiError(
      client.menuItems.reorder([
        { id: a.id, position: 1, parent: null },
        { id: c.id, position: 1, parent: null },
      ]),
      'DUPLICATE_POSITIONS_FOUND',
    );
    await rejectsWithApiError(
      client.menuItems.reorder([{ id: a.id, position: 1, parent: ref(b.id) }]),
      'INVALID_FIELD',
      { field: 'parent', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.menuItems.reorder([{ id: generateId(), position: 1, parent: null }]),
      'NOT_FOUND',
    );
    assert.deepEqual(await layout(), before);
    await clearMenu();
  });

  test('position 0, as generated scripts send it, keeps the order the script meant', async () => {
    // Created in the reverse order, then moved the way `migrations:new --autogenerate`
    // plans it from a project numbered from 0.
    const c = await client.menuItems.create({ label: 'C' });
    const b = await client.menuItems.create({ label: 'B' });
    const a = await client.menuItems.create({ label: 'A' });
    assert.equal((await client.menuItems.update(a.id, { position: 0 })).position, 0);
    await client.menuItems.update(b.id, { position: 1 });
    await client.menuItems.update(c.id, { position: 2 });
    assert.deepEqual(await layout(), {
      [a.id]: [null, 0],
      [b.id]: [null, 1],
      [c.id]: [null, 2],
    });
    const first = await client.menuItems.create({ label: 'First', position: 0 });
    assert.deepEqual(await layout(), {
      [first.id]: [null, 0],
      [a.id]: [null, 1],
      [b.id]: [null, 2],
      [c.id]: [null, 3],
    });
    await client.menuItems.destroy(first.id);
    // A 0-based reorder takes the positions sent.
    await client.menuItems.reorder([
      { id: c.id, type: 'menu_item', position: 0, parent: null },
      { id: a.id, type: 'menu_item', position: 1, parent: null },
      { id: b.id, type: 'menu_item', position: 2, parent: null },
    ]);
    assert.deepEqual(await layout(), {
      [c.id]: [null, 0],
      [a.id]: [null, 1],
      [b.id]: [null, 2],
    });
    await clearMenu();
  });

  describe('with async jobs on', () => {
    const asyncServer = useTestServer({ asyncJobs: true });

    test('reorder runs as a job', async () => {
      const asyncClient = asyncServer.client();
      const a = await asyncClient.menuItems.create({ label: 'A' });
      const b = await asyncClient.menuItems.create({ label: 'B' });
      const raw = await asyncServer.request('POST', '/menu-items/reorder', {
        data: [
          {
            type: 'menu_item',
            id: b.id,
            attributes: { position: 1 },
            relationships: { parent: { data: null } },
          },
        ],
      });
      assert.equal(raw.status, 202);
      const moved = await asyncClient.menuItems.reorder([{ id: a.id, position: 1, parent: null }]);
      assert.deepEqual(
        moved.map((item) => [item.id, item.position]),
        [[a.id, 1]],
      );
    });
  });
});
