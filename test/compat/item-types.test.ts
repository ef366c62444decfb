import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiError } from '../support/api-errors.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

describe('item types through the official client', () => {
  test('create, find by id and api_key, update, list, duplicate, destroy', async () => {
    const client = server.client();
    const created = await client.itemTypes.create({ name: 'Blog post', api_key: 'blog_post' });
    assert.equal(created.api_key, 'blog_post');
    assert.equal(created.collection_appearance, 'compact');
    assert.deepEqual(created.meta, { has_singleton_item: false });

    assert.equal((await client.itemTypes.find('blog_post')).id, created.id);
    assert.equal((await client.itemTypes.find(created.id)).name, 'Blog post');

    const byKey = await client.itemTypes.update('blog_post', { hint: 'Posts', sortable: true });
    assert.equal(byKey.hint, 'Posts');
    assert.equal(byKey.sortable, true);
    const byId = await client.itemTypes.update(created.id, { name: 'Article', hint: null });
    assert.equal(byId.name, 'Article');
    assert.equal(byId.hint, null);
    assert.equal(byId.sortable, true, 'omitted attributes stay unchanged');

    const copy = await client.itemTypes.duplicate(created.id);
    assert.equal(copy.name, 'Article (copy #1)');
    assert.equal(copy.api_key, 'blog_post_copy1');

    const list = await client.itemTypes.list();
    assert.deepEqual(
      list.map((m) => m.api_key),
      ['blog_post', 'blog_post_copy1'],
    );

    const destroyed = await client.itemTypes.destroy(copy.id);
    assert.equal(destroyed.id, copy.id);
    await assert.rejects(client.itemTypes.find(copy.id), (error) => {
      return apiError(error).findError('NOT_FOUND') !== undefined;
    });
  });

  test('a menu item is created unless skip_menu_item_creation', async () => {
    const client = server.client();
    const withMenu = await client.itemTypes.create({ name: 'Page', api_key: 'page' });
    const without = await client.itemTypes.create(
      { name: 'Author', api_key: 'author' },
      { skip_menu_item_creation: true },
    );
    const menu = await client.menuItems.list();
    assert.ok(menu.some((m) => m.item_type?.id === withMenu.id && m.label === 'Page'));
    assert.ok(!menu.some((m) => m.item_type?.id === without.id));
  });

  test('validation failures come back as ApiError with the spec codes and change nothing', async () => {
    const client = server.client();
    await client.itemTypes.create({ name: 'Tag', api_key: 'tag' });
    const before = await client.itemTypes.list();
    const cases: [Record<string, unknown>, string, Record<string, string>][] = [
      [
        { name: 'Tag 2', api_key: 'tag' },
        'INVALID_FIELD',
        { field: 'api_key', code: 'VALIDATION_UNIQUENESS' },
      ],
      [
        { name: 'X', api_key: 'Bad Key' },
        'INVALID_FIELD',
        { field: 'api_key', code: 'VALIDATION_FORMAT' },
      ],
      [
        { name: 'X', api_key: 'site' },
        'INVALID_FIELD',
        { field: 'api_key', code: 'VALIDATION_EXCLUSION' },
      ],
      [
        { name: ' ', api_key: 'blank_name' },
        'INVALID_FIELD',
        { field: 'name', code: 'VALIDATION_REQUIRED' },
      ],
      [
        { name: 'Block', api_key: 'block_x', modular_block: true, sortable: true },
        'INVALID_FIELD',
        { field: 'sortable', code: 'VALIDATION_INVALID' },
      ],
    ];
    for (const [body, code, details] of cases) {
      await assert.rejects(
        client.itemTypes.create(body as Parameters<typeof client.itemTypes.create>[0]),
        (error) => {
          const found = apiError(error).findError(code, details);
          assert.ok(found, `${JSON.stringify(body)} → ${JSON.stringify(apiError(error).errors)}`);
          return true;
        },
      );
    }
    assert.deepEqual(await client.itemTypes.list(), before);
  });

  test('a name taken in another case and a taken api_key are reported together', async () => {
    const client = server.client();
    await client.itemTypes.create({ name: 'Clash Name', api_key: 'clash_key' });
    const before = await client.itemTypes.list();
    await assert.rejects(
      client.itemTypes.create({ name: 'CLASH name', api_key: 'clash_key' }),
      (error) => {
        const details = apiError(error).errors.map((e) => e.attributes.details);
        assert.deepEqual(details.map((d) => `${d.field} ${d.code}`).sort(), [
          'api_key VALIDATION_UNIQUENESS',
          'name VALIDATION_UNIQUENESS',
        ]);
        return true;
      },
    );
    assert.deepEqual(await client.itemTypes.list(), before);
  });

  test("a new model's menu entries go last among the top-level entries", async () => {
    const client = server.client();
    const folder = await client.menuItems.create({ label: 'Folder' });
    await client.menuItems.create({
      label: 'Deep',
      parent: { type: 'menu_item', id: folder.id },
      position: 90,
    });
    const group = await client.schemaMenuItems.create({ label: 'Group', kind: 'item_type' });
    await client.schemaMenuItems.create({
      label: 'Deep',
      kind: 'item_type',
      parent: { type: 'schema_menu_item', id: group.id },
      position: 90,
    });
    const model = await client.itemTypes.create({ name: 'Menu end', api_key: 'menu_end' });
    const block = await client.itemTypes.create({
      name: 'Menu end block',
      api_key: 'menu_end_block',
      modular_block: true,
    });
    const lastOf = async (
      list: Promise<{ parent: unknown; item_type?: unknown; position: number }[]>,
    ) => {
      const roots = (await list).filter((item) => item.parent === null);
      return roots.sort((a, b) => a.position - b.position).slice(-2);
    };
    const menu = await lastOf(client.menuItems.list());
    assert.deepEqual(
      menu.map((item) => item.item_type),
      [null, { type: 'item_type', id: model.id }],
    );
    assert.equal(menu[1]?.position, (menu[0]?.position ?? 0) + 1);
    const schemaMenu = await lastOf(client.schemaMenuItems.list());
    assert.deepEqual(
      schemaMenu.map((item) => item.item_type),
      [
        { type: 'item_type', id: model.id },
        { type: 'item_type', id: block.id },
      ],
    );
    assert.equal(schemaMenu[1]?.position, (schemaMenu[0]?.position ?? 0) + 1);
  });

  test('20 concurrent creates with one api_key give one model and 19 uniqueness errors', async () => {
    const client = server.client();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        client.itemTypes.create({ name: `Race ${i}`, api_key: 'race' }),
      ),
    );
    const created = results.filter((r) => r.status === 'fulfilled');
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(created.length, 1);
    assert.equal(failures.length, 19);
    for (const failure of failures) {
      assert.ok(
        apiError(failure.reason).findError('INVALID_FIELD', {
          field: 'api_key',
          code: 'VALIDATION_UNIQUENESS',
        }),
      );
    }
    const models = await client.itemTypes.list();
    assert.equal(models.filter((m) => m.api_key === 'race').length, 1);
  });
});

describe('menus when a model is destroyed', () => {
  test('its menu entries go and the remaining positions stay contiguous', async () => {
    const client = server.client();
    const first = await client.itemTypes.create({ name: 'First', api_key: 'first' });
    await client.itemTypes.create({ name: 'Second', api_key: 'second' });
    await client.itemTypes.destroy(first.id);
    const menu = await client.menuItems.list();
    const schemaMenu = await client.schemaMenuItems.list();
    for (const items of [menu, schemaMenu]) {
      const roots = items.filter((item) => item.parent === null).map((item) => item.position);
      assert.deepEqual(
        roots.sort((a, b) => a - b),
        roots.map((_, i) => i + 1),
      );
    }
    assert.ok(!menu.some((item) => item.item_type?.id === first.id));
    assert.ok(!schemaMenu.some((item) => item.item_type?.id === first.id));
  });

  test('skip_menu_items_deletion keeps the content menu item, unlinked', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Kept', api_key: 'kept' });
    const [menuItem] = (await client.menuItems.list()).filter((m) => m.item_type?.id === model.id);
    assert.ok(menuItem);
    await client.itemTypes.destroy(model.id, { skip_menu_items_deletion: true });
    const kept = await client.menuItems.find(menuItem.id);
    assert.equal(kept.item_type, null);
  });
});

describe('client-chosen ids', () => {
  test('data.id, menu_item_id and schema_menu_item_id are kept', async () => {
    const client = server.client();
    const { generateId } = await import('@datocms/cma-client-node');
    const [id, menuItemId, schemaMenuItemId] = [generateId(), generateId(), generateId()];
    const model = await client.itemTypes.create(
      { id, name: 'Chosen', api_key: 'chosen' },
      { menu_item_id: menuItemId, schema_menu_item_id: schemaMenuItemId },
    );
    assert.equal(model.id, id);
    assert.deepEqual((await client.menuItems.find(menuItemId)).item_type, {
      type: 'item_type',
      id,
    });
    assert.deepEqual((await client.schemaMenuItems.find(schemaMenuItemId)).item_type, {
      type: 'item_type',
      id,
    });
  });

  test('malformed or taken ids are refused and nothing is created', async () => {
    const client = server.client();
    const before = await client.itemTypes.list();
    const taken = before[0]?.id ?? '';
    // Thunks, so each request starts only when awaited: a rejection never goes unhandled.
    const attempts: [() => Promise<unknown>, string, string][] = [
      [
        () => client.itemTypes.create({ id: 'not-an-id', name: 'A', api_key: 'a_model' }),
        'id',
        'VALIDATION_INVALID',
      ],
      [
        () => client.itemTypes.create({ id: taken, name: 'B', api_key: 'b_model' }),
        'id',
        'VALIDATION_UNIQUENESS',
      ],
      [
        () => client.itemTypes.create({ name: 'C', api_key: 'c_model' }, { menu_item_id: 'nope' }),
        'menu_item_id',
        'VALIDATION_INVALID',
      ],
    ];
    for (const [attempt, field, code] of attempts) {
      await assert.rejects(attempt(), (error) => {
        assert.ok(apiError(error).findError('INVALID_FIELD', { field, code }), String(error));
        return true;
      });
    }
    assert.deepEqual(await client.itemTypes.list(), before);
  });
});
