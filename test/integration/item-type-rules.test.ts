import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadScope } from '../../src/db/environment-scope.ts';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { insertField } from '../support/fixtures.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

const fieldRef = (id: string) => ({ type: 'field' as const, id });

describe('model rules', () => {
  test('ordering: field and meta are exclusive, direction follows them', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Post', api_key: 'post' });
    const title = await insertField(server.db, model.id, {
      api_key: 'title',
      field_type: 'string',
    });

    const ordered = await client.itemTypes.update(model.id, { ordering_field: fieldRef(title) });
    assert.deepEqual(ordered.ordering_field, fieldRef(title));
    assert.equal(ordered.ordering_direction, 'asc', 'direction defaults to asc');

    await rejectsWithApiError(
      client.itemTypes.update(model.id, { ordering_meta: 'created_at' }),
      'INVALID_FIELD',
      { field: 'ordering_meta', code: 'VALIDATION_INVALID' },
    );
    const byMeta = await client.itemTypes.update(model.id, {
      ordering_field: null,
      ordering_meta: 'created_at',
      ordering_direction: 'desc',
    });
    assert.equal(byMeta.ordering_field, null);
    assert.equal(byMeta.ordering_direction, 'desc');

    const cleared = await client.itemTypes.update(model.id, { ordering_meta: null });
    assert.equal(cleared.ordering_direction, null, 'clearing the ordering clears the direction');
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { ordering_direction: 'asc' }),
      'INVALID_FIELD',
      { field: 'ordering_direction', code: 'VALIDATION_INVALID' },
    );
  });

  test('ordering is refused on sortable, tree and singleton models', async () => {
    const client = server.client();
    const sortable = await client.itemTypes.create({
      name: 'Menu',
      api_key: 'menu',
      sortable: true,
    });
    await rejectsWithApiError(
      client.itemTypes.update(sortable.id, { ordering_meta: 'updated_at' }),
      'INVALID_ORDERING_FOR_SORTABLE_ITEM_TYPE',
    );
    const single = await client.itemTypes.create({
      name: 'Home',
      api_key: 'home',
      singleton: true,
    });
    await rejectsWithApiError(
      client.itemTypes.update(single.id, { ordering_meta: 'updated_at' }),
      'INVALID_ORDERING_FOR_SINGLETON_ITEM_TYPE',
    );
    // Not documented as refused by DatoCMS, so stored as sent (docs/compatibility.md).
    const both = await client.itemTypes.create({
      name: 'Both',
      api_key: 'both',
      sortable: true,
      tree: true,
      draft_saving_active: true,
    });
    assert.deepEqual([both.sortable, both.tree, both.draft_saving_active], [true, true, true]);
    assert.equal(both.draft_mode_active, false);
  });

  test('field relationships must name an eligible field of the same model', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
    const other = await client.itemTypes.create({ name: 'Other', api_key: 'other' });
    const body = await insertField(server.db, model.id, { api_key: 'body', field_type: 'text' });
    const image = await insertField(server.db, model.id, { api_key: 'image', field_type: 'file' });
    const foreign = await insertField(server.db, other.id, {
      api_key: 'name',
      field_type: 'string',
    });

    const updated = await client.itemTypes.update(model.id, {
      excerpt_field: fieldRef(body),
      image_preview_field: fieldRef(image),
      presentation_image_field: fieldRef(image),
    });
    assert.deepEqual(updated.excerpt_field, fieldRef(body));
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { title_field: fieldRef(body) }),
      'INVALID_FIELD',
      { field: 'title_field', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { title_field: fieldRef(foreign) }),
      'INVALID_FIELD',
      { field: 'title_field', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.itemTypes.create({
        name: 'New',
        api_key: 'new_model',
        title_field: fieldRef(foreign),
      }),
      'INVALID_FIELD',
      { field: 'title_field', code: 'VALIDATION_INVALID' },
    );
    const cleared = await client.itemTypes.update(model.id, { excerpt_field: null });
    assert.equal(cleared.excerpt_field, null);
    assert.deepEqual(cleared.image_preview_field, fieldRef(image), 'others stay');
  });

  test('block models: forbidden flags refused when explicit, coerced when omitted', async () => {
    const client = server.client();
    const block = await client.itemTypes.create({
      name: 'Quote',
      api_key: 'quote',
      modular_block: true,
      all_locales_required: true,
    });
    assert.equal(block.modular_block, true);
    assert.equal(block.draft_mode_active, false);
    assert.equal(block.all_locales_required, true);
    for (const flag of ['sortable', 'tree', 'singleton', 'draft_mode_active'] as const) {
      await rejectsWithApiError(
        client.itemTypes.update(block.id, { [flag]: true }),
        'INVALID_FIELD',
        {
          field: flag,
          code: 'VALIDATION_INVALID',
        },
      );
    }
    await rejectsWithApiError(
      client.itemTypes.update(block.id, { modular_block: false }),
      'ITEM_TYPE_CANNOT_BE_CHANGED',
    );
  });

  test('has_singleton_item is set through the update, as meta or attribute', async () => {
    const client = server.client();
    await client.itemTypes.create({ name: 'Settings', api_key: 'settings' });
    const single = await client.itemTypes.update('settings', {
      singleton: true,
      meta: { has_singleton_item: false },
    });
    assert.equal(single.singleton, true);
    assert.equal(single.has_singleton_item, false);
    assert.deepEqual(single.meta, { has_singleton_item: false });
    const set = await client.itemTypes.update('settings', { meta: { has_singleton_item: true } });
    assert.equal(set.has_singleton_item, true, 'no record is needed to set it');
    assert.deepEqual(set.meta, { has_singleton_item: true });
    const kept = await client.itemTypes.update('settings', { hint: 'Site-wide settings' });
    assert.equal(kept.has_singleton_item, true, 'omitted: unchanged');
    const cleared = await client.itemTypes.update('settings', { has_singleton_item: false });
    assert.equal(cleared.has_singleton_item, false);
    await client.itemTypes.update('settings', { has_singleton_item: true });
    const plain = await client.itemTypes.update('settings', { singleton: false });
    assert.equal(plain.has_singleton_item, false, 'not a singleton: no singleton record');
  });

  test('a refused update changes nothing, several failures are all reported', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Event', api_key: 'event' });
    const response = await server.request('PUT', `/item-types/${model.id}`, {
      data: {
        type: 'item_type',
        id: model.id,
        attributes: { name: '', api_key: 'Not Valid', hint: 'changed' },
      },
    });
    assert.equal(response.status, 422);
    const codes = (
      response.body as { data: { attributes: { details: { field: string } } }[] }
    ).data.map((e) => e.attributes.details.field);
    assert.deepEqual(codes, ['name', 'api_key']);
    assert.equal((await client.itemTypes.find(model.id)).hint, null);
  });

  test('duplicate copies fields and remaps relationships to the copies', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Product', api_key: 'product' });
    const name = await insertField(server.db, model.id, { api_key: 'name', field_type: 'string' });
    await client.itemTypes.update(model.id, { title_field: fieldRef(name) });
    const copy = await client.itemTypes.duplicate('product');
    assert.equal(copy.fields.length, 1);
    assert.notEqual(copy.fields[0]?.id, name);
    assert.deepEqual(copy.title_field, copy.fields[0]);
    const again = await client.itemTypes.duplicate('product');
    assert.equal(again.name, 'Product (copy #2)');
  });

  test('destroy: link validators lose the model, block in use is refused', async () => {
    const client = server.client();
    const author = await client.itemTypes.create({ name: 'Writer', api_key: 'writer' });
    const editor = await client.itemTypes.create({ name: 'Editor', api_key: 'editor' });
    const book = await client.itemTypes.create({ name: 'Book', api_key: 'book' });
    const linkField = await insertField(server.db, book.id, {
      api_key: 'people',
      field_type: 'links',
      validators: { items_item_type: { item_types: [author.id, editor.id] } },
    });
    const onlyWriter = await insertField(server.db, book.id, {
      api_key: 'writer',
      field_type: 'link',
      validators: { item_item_type: { item_types: [editor.id] } },
    });
    const referencing = await client.itemTypes.referencing(editor.id);
    assert.deepEqual(
      referencing.map((m) => m.id),
      [book.id],
    );
    await rejectsWithApiError(client.itemTypes.destroy(editor.id), 'REQUIRED_BY_ASSOCIATION');
    await (await loadScope(server.db)).db
      .deleteFrom('fields')
      .where('id', '=', onlyWriter)
      .execute();
    await client.itemTypes.destroy(editor.id);
    const field = await (await loadScope(server.db)).db
      .selectFrom('fields')
      .select('validators')
      .where('id', '=', linkField)
      .executeTakeFirstOrThrow();
    assert.deepEqual(field.validators, { items_item_type: { item_types: [author.id] } });

    const block = await client.itemTypes.create({
      name: 'Hero',
      api_key: 'hero',
      modular_block: true,
    });
    await insertField(server.db, book.id, {
      api_key: 'content',
      field_type: 'rich_text',
      validators: { rich_text_blocks: { item_types: [block.id] } },
    });
    await rejectsWithApiError(client.itemTypes.destroy(block.id), 'MODULAR_BLOCK_IN_USE');
  });

  test('every change writes its event in the same transaction', async () => {
    const client = server.client();
    const start = await server.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirstOrThrow();
    const model = await client.itemTypes.create({ name: 'Evented', api_key: 'evented' });
    await client.itemTypes.update(model.id, { hint: 'x' });
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { api_key: 'BAD' }),
      'INVALID_FIELD',
    );
    await client.itemTypes.destroy(model.id);
    const events = await server.db
      .selectFrom('events')
      .select(['event_type', 'entity_id', 'entity', 'previous_entity'])
      .where('id', '>', String(start.max ?? 0))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => [e.event_type, e.entity_id]),
      [
        ['create', model.id],
        ['update', model.id],
        ['delete', model.id],
      ],
    );
    const update = events[1];
    assert.ok(update);
    assert.equal((update.previous_entity as { attributes: { hint: null } }).attributes.hint, null);
    assert.equal((update.entity as { attributes: { hint: string } }).attributes.hint, 'x');
  });
});
