// A hand-written migration started from the CLI's own template: models created without
// `skip_menu_item_creation` (the server adds their menu items), fields without an
// `appearance` (the server picks each type's default editor), objects passed where ids
// are expected, and fields addressed as `model::field`.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertFields } from '../../support/migration-schema.ts';

export default async function (client: Client) {
  const articleModel = await client.itemTypes.create({ name: 'Article', api_key: 'article' });
  const authorModel = await client.itemTypes.create({ name: 'Author', api_key: 'author' });
  const quoteBlock = await client.itemTypes.create({
    name: 'Quote',
    api_key: 'quote',
    modular_block: true,
  });

  await client.fields.create(quoteBlock, {
    label: 'Text',
    api_key: 'text',
    field_type: 'text',
    validators: { required: {} },
  });
  const titleField = await client.fields.create(articleModel, {
    label: 'Title',
    api_key: 'title',
    field_type: 'string',
    validators: { required: {} },
  });
  await client.fields.create(articleModel, {
    label: 'Author',
    api_key: 'author',
    field_type: 'link',
    validators: { item_item_type: { item_types: [authorModel.id] } },
  });
  await client.fields.create(articleModel, {
    label: 'Content',
    api_key: 'content',
    field_type: 'rich_text',
    validators: { rich_text_blocks: { item_types: [quoteBlock.id] } },
  });
  await client.fields.create(authorModel, {
    label: 'Name',
    api_key: 'name',
    field_type: 'string',
  });

  await client.itemTypes.update(articleModel, { title_field: titleField });
  await client.fields.update('article::title', { hint: 'Shown in listings' });
}

export async function expect(client: Client) {
  const fields = await assertFields(client, 'article', {
    title: { field_type: 'string', hint: 'Shown in listings', validators: { required: {} } },
    author: { field_type: 'link' },
    content: { field_type: 'rich_text' },
  });
  assert.equal(fields.author.appearance.editor, 'link_select');
  assert.equal(fields.content.appearance.editor, 'rich_text');
  assert.deepEqual(fields.author.appearance.addons, []);
  // The omitted strategies come back with DatoCMS's defaults.
  assert.deepEqual((fields.author.validators as Record<string, unknown>).item_item_type, {
    item_types: [(await client.itemTypes.find('author')).id],
    on_publish_with_unpublished_references_strategy: 'fail',
    on_reference_unpublish_strategy: 'fail',
    on_reference_delete_strategy: 'delete_references',
  });
  const [name] = await client.fields.list('author');
  assert.equal(name?.appearance.editor, 'single_line');

  // Models got menu items; blocks do not.
  const menu = await client.menuItems.list();
  assert.deepEqual(menu.map((item) => item.label).sort(), ['Article', 'Author']);
}
