// What real DatoCMS projects return, and `migrations:new --autogenerate` replays,
// is accepted. Each case is the shape a generated script sends.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { buildModel } from '../support/factories.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();
const fieldRef = (id: string) => ({ type: 'field' as const, id });

const validatorsOf = (field: { validators: unknown }) =>
  field.validators as Record<string, unknown>;

describe('legacy appearance.type', () => {
  test('accepted and ignored on create and update, under both spellings', async () => {
    const model = await buildModel(client);
    const title = await client.fields.create(model.id, {
      label: 'Title',
      field_type: 'string',
      api_key: 'title',
      appearance: {
        addons: [],
        editor: 'single_line',
        parameters: { heading: true },
        type: 'title',
      } as never,
    });
    assert.deepEqual(title.appearance, {
      editor: 'single_line',
      parameters: { heading: true },
      addons: [],
    });
    assert.equal('type' in title.appearance, false, 'the legacy type is not stored');

    const body = await client.fields.create(model.id, {
      label: 'Body',
      field_type: 'text',
      api_key: 'body',
      appearance: {
        addons: [],
        editor: 'markdown',
        parameters: { toolbar: ['bold', 'italic', 'link'] },
        type: 'markdown',
      } as never,
    });
    assert.equal(body.appearance.editor, 'markdown');

    for (const [editor, type] of [
      ['textarea', 'textarea'],
      ['wysiwyg', 'wysiwyg'],
    ] as const) {
      const updated = await client.fields.update(body.id, {
        appearance: { addons: [], editor, parameters: {}, type } as never,
      });
      assert.equal(updated.appearance.editor, editor);
      assert.equal('type' in updated.appearance, false);
    }
    const legacy = await server.request('PUT', `/fields/${body.id}`, {
      data: {
        type: 'field',
        id: body.id,
        attributes: { appeareance: { editor: 'markdown', parameters: {}, type: 'markdown' } },
      },
    });
    assert.equal(legacy.status, 200);
    const stored = (await client.fields.find(body.id)).appearance;
    assert.equal(stored.editor, 'markdown');
    assert.equal('type' in stored, false);
  });

  test('everything else in an appearance is still checked', async () => {
    const model = await buildModel(client);
    await rejectsWithApiError(
      client.fields.create(model.id, {
        label: 'Title',
        field_type: 'string',
        api_key: 'title',
        appearance: { addons: [], editor: 'markdown', parameters: {}, type: 'title' } as never,
      }),
      'INVALID_FIELD',
      { field: 'appearance' },
    );
    await rejectsWithApiError(
      client.fields.create(model.id, {
        label: 'Title',
        field_type: 'string',
        api_key: 'title',
        appearance: { addons: [], editor: 'single_line', parameters: {}, kind: 'x' } as never,
      }),
      'INVALID_FORMAT',
    );
  });
});

describe('blank default values', () => {
  test('"" next to format (url, email, custom pattern) or enum validators is accepted', async () => {
    const model = await buildModel(client);
    const cases: [string, Record<string, unknown>][] = [
      ['url', { format: { predefined_pattern: 'url' } }],
      ['email', { format: { predefined_pattern: 'email' } }],
      ['code', { format: { custom_pattern: '^[A-Z]{3}$', description: 'three capitals' } }],
      ['choice', { enum: { values: ['a', 'b'] } }],
    ];
    for (const [apiKey, validators] of cases) {
      const field = await client.fields.create(model.id, {
        label: apiKey,
        field_type: 'string',
        api_key: apiKey,
        validators: validators as never,
        default_value: '',
      });
      assert.equal(field.default_value, '', apiKey);
      const updated = await client.fields.update(field.id, { default_value: '' });
      assert.equal(updated.default_value, '', apiKey);
    }
  });

  test('a localized {en: "", it: ""} with a format validator is accepted', async () => {
    await client.site.update({ locales: ['en', 'it'] });
    try {
      const model = await buildModel(client);
      const field = await client.fields.create(model.id, {
        label: 'Link',
        field_type: 'string',
        api_key: 'link',
        localized: true,
        validators: { format: { predefined_pattern: 'url' }, required: {} },
        default_value: { en: '', it: '' },
      });
      assert.deepEqual(field.default_value, { en: '', it: '' });
      await client.fields.destroy(field.id);
    } finally {
      await client.site.update({ locales: ['en'] });
    }
  });

  test('the type shape of a default is still checked', async () => {
    const model = await buildModel(client);
    await rejectsWithApiError(
      client.fields.create(model.id, {
        label: 'Count',
        field_type: 'integer',
        api_key: 'count',
        default_value: '' as never,
      }),
      'INVALID_FIELD',
      { field: 'default_value' },
    );
  });
});

describe('extension validator', () => {
  test('extensions: [] next to predefined_list is accepted and stored as sent', async () => {
    const model = await buildModel(client);
    const image = await client.fields.create(model.id, {
      label: 'Image',
      field_type: 'file',
      api_key: 'image',
      // The client types the two as exclusive; DatoCMS returns both (a JS script sends both).
      validators: { extension: { extensions: [], predefined_list: 'image' } } as never,
    });
    assert.deepEqual(validatorsOf(image).extension, { extensions: [], predefined_list: 'image' });
    const gallery = await client.fields.create(model.id, {
      label: 'Gallery',
      field_type: 'gallery',
      api_key: 'gallery',
      validators: { extension: { extensions: ['pdf'], predefined_list: null } } as never,
    });
    const updated = await client.fields.update(gallery.id, {
      validators: { extension: { extensions: [], predefined_list: 'document' } } as never,
    });
    assert.deepEqual(validatorsOf(updated).extension, {
      extensions: [],
      predefined_list: 'document',
    });
  });

  test('one of the two must still be in use', async () => {
    const model = await buildModel(client);
    for (const extension of [{ extensions: [] }, { extensions: ['png'], predefined_list: 'image' }])
      await rejectsWithApiError(
        client.fields.create(model.id, {
          label: 'Image',
          field_type: 'file',
          api_key: 'image',
          validators: { extension } as never,
        }),
        'INVALID_FIELD',
        { field: 'validators' },
      );
  });
});

describe('a link field as title_field / image_preview_field', () => {
  test('accepted for the title, presentation and image relationships', async () => {
    const target = await buildModel(client);
    const model = await buildModel(client);
    const author = await client.fields.create(model.id, {
      label: 'Author',
      field_type: 'link',
      api_key: 'author',
      validators: { item_item_type: { item_types: [target.id] } },
    });
    const updated = await client.itemTypes.update(model.id, {
      title_field: fieldRef(author.id),
      image_preview_field: fieldRef(author.id),
      presentation_title_field: fieldRef(author.id),
      presentation_image_field: fieldRef(author.id),
    });
    assert.deepEqual(updated.title_field, fieldRef(author.id));
    assert.deepEqual(updated.image_preview_field, fieldRef(author.id));
    assert.deepEqual(updated.presentation_title_field, fieldRef(author.id));
    assert.deepEqual(updated.presentation_image_field, fieldRef(author.id));
  });

  test('fields that cannot stand for a title or image are still refused', async () => {
    const target = await buildModel(client);
    const model = await buildModel(client);
    const tags = await client.fields.create(model.id, {
      label: 'Tags',
      field_type: 'links',
      api_key: 'tags',
      validators: { items_item_type: { item_types: [target.id] } },
    });
    const flag = await client.fields.create(model.id, {
      label: 'Flag',
      field_type: 'boolean',
      api_key: 'flag',
    });
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { title_field: fieldRef(tags.id) }),
      'INVALID_FIELD',
      { field: 'title_field', code: 'VALIDATION_INVALID' },
    );
    await rejectsWithApiError(
      client.itemTypes.update(model.id, { image_preview_field: fieldRef(flag.id) }),
      'INVALID_FIELD',
      { field: 'image_preview_field', code: 'VALIDATION_INVALID' },
    );
  });
});

describe('meta.has_singleton_item', () => {
  test('true on a singleton with no record is stored as sent', async () => {
    const model = await buildModel(client);
    const updated = await client.itemTypes.update(model.id, {
      singleton: true,
      meta: { has_singleton_item: true },
    });
    assert.equal(updated.has_singleton_item, true);
    assert.deepEqual(updated.meta, { has_singleton_item: true });
    assert.equal((await client.itemTypes.find(model.id)).meta.has_singleton_item, true);
  });
});

describe('bootstrap roles', () => {
  test('a new project has Admin and Editor; a script finds Editor by name', async () => {
    const roles = await client.roles.list();
    assert.deepEqual(roles.map((role) => role.name).sort(), ['Admin', 'Editor']);
    const editor = roles.find((role) => role.name === 'Editor');
    assert.ok(editor);
    assert.equal(editor.can_edit_schema, false);
    assert.equal(editor.can_manage_access_tokens, false);
    assert.equal(editor.environments_access, 'primary_only');
    assert.equal(editor.positive_item_type_permissions[0]?.action, 'all');
    // The documented use: a preview token on the Editor role.
    const token = await client.accessTokens.create({
      name: 'Preview',
      can_access_cda: true,
      can_access_cda_preview: true,
      can_access_cma: false,
      role: { type: 'role', id: editor.id },
    });
    assert.deepEqual(token.role, { type: 'role', id: editor.id });
  });
});

describe('link editors with parameters {filters: []} (issue 23)', () => {
  test('link_select, link_embed, links_select and links_embed accept it, as generated scripts send it', async () => {
    const target = await buildModel(client);
    const model = await buildModel(client);
    const cases = [
      ['link', 'link_select', 'item_item_type'],
      ['link', 'link_embed', 'item_item_type'],
      ['links', 'links_select', 'items_item_type'],
      ['links', 'links_embed', 'items_item_type'],
    ] as const;
    for (const [index, [fieldType, editor, validator]] of cases.entries()) {
      const field = await client.fields.create(model.id, {
        label: `Link ${index}`,
        field_type: fieldType,
        api_key: `link_n${index}`,
        validators: {
          [validator]: {
            item_types: [target.id],
            on_publish_with_unpublished_references_strategy: 'fail',
            on_reference_unpublish_strategy: 'delete_references',
            on_reference_delete_strategy: 'delete_references',
          },
        },
        appearance: { addons: [], editor, parameters: { filters: [] } },
      } as never);
      assert.deepEqual(field.appearance, { editor, parameters: { filters: [] }, addons: [] });
      const updated = await client.fields.update(field.id, {
        appearance: { addons: [], editor, parameters: { filters: [] } },
      } as never);
      assert.deepEqual(updated.appearance.parameters, { filters: [] }, editor);
    }
  });

  test('filters must still be a list, and other parameters are still refused', async () => {
    const target = await buildModel(client);
    const model = await buildModel(client);
    for (const parameters of [{ filters: 'all' }, { filters: [], page_size: 10 }])
      await rejectsWithApiError(
        client.fields.create(model.id, {
          label: 'Link',
          field_type: 'link',
          api_key: 'link',
          validators: { item_item_type: { item_types: [target.id] } },
          appearance: { addons: [], editor: 'link_select', parameters },
        } as never),
        'INVALID_FIELD',
        { field: 'appearance' },
      );
  });
});
