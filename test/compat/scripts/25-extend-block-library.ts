// The most common small migration in public projects: a new block model is created and
// appended to the blocks an existing modular content field (and a structured text field)
// accepts, replaying the whole validator as the generated update does.
import assert from 'node:assert/strict';
import type { Client, SimpleSchemaTypes } from '@datocms/cma-client-node';

export default async function (client: Client) {
  const newItemTypes: Record<string, SimpleSchemaTypes.ItemType> = {};
  const newFields: Record<string, SimpleSchemaTypes.Field> = {};

  // The schema as earlier migrations left it.
  newItemTypes['41672'] = await client.itemTypes.create(
    { name: 'Service', api_key: 'service', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  newItemTypes['41836'] = await client.itemTypes.create(
    {
      name: 'Text block',
      api_key: 'text_block',
      modular_block: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  newFields['164064'] = await client.fields.create(newItemTypes['41672'], {
    label: 'Items',
    field_type: 'rich_text',
    api_key: 'items',
    validators: { rich_text_blocks: { item_types: [newItemTypes['41836'].id] } },
    appearance: { addons: [], editor: 'rich_text', parameters: { start_collapsed: false } },
  });
  newFields['164065'] = await client.fields.create(newItemTypes['41672'], {
    label: 'Body',
    field_type: 'structured_text',
    api_key: 'body',
    validators: {
      structured_text_blocks: { item_types: [] },
      structured_text_links: {
        on_publish_with_unpublished_references_strategy: 'fail',
        on_reference_unpublish_strategy: 'delete_references',
        on_reference_delete_strategy: 'delete_references',
        item_types: [],
      },
    },
    appearance: {
      addons: [],
      editor: 'structured_text',
      parameters: {
        marks: ['strong', 'emphasis'],
        nodes: ['heading', 'link', 'list'],
        heading_levels: [2, 3],
        blocks_start_collapsed: false,
        show_links_meta_editor: false,
        show_links_target_blank: true,
      },
    },
  });

  // Create new models/block models

  // Create block model "Video embed" (`video_embed`)
  newItemTypes['2040351'] = await client.itemTypes.create(
    {
      name: 'Video embed',
      api_key: 'video_embed',
      modular_block: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  // Create External video field "Video" (`video`) in block model "Video embed" (`video_embed`)
  await client.fields.create(newItemTypes['2040351'], {
    label: 'Video',
    field_type: 'video',
    api_key: 'video',
    validators: { required: {} },
    appearance: { addons: [], editor: 'video', parameters: {} },
  });

  // Update existing fields/fieldsets

  // Update Modular content field "Items" (`items`) in model "Service" (`service`)
  await client.fields.update(newFields['164064'].id, {
    validators: {
      rich_text_blocks: {
        item_types: [newItemTypes['41836'].id, newItemTypes['2040351'].id],
      },
    },
  });
  // Update Structured text field "Body" (`body`) in model "Service" (`service`)
  await client.fields.update(newFields['164065'].id, {
    validators: {
      structured_text_blocks: { item_types: [newItemTypes['2040351'].id] },
      structured_text_links: {
        on_publish_with_unpublished_references_strategy: 'fail',
        on_reference_unpublish_strategy: 'delete_references',
        on_reference_delete_strategy: 'delete_references',
        item_types: [newItemTypes['41672'].id],
      },
    },
  });
}

export async function expect(client: Client) {
  const video = await client.itemTypes.find('video_embed');
  const text = await client.itemTypes.find('text_block');
  const service = await client.itemTypes.find('service');
  const items = await client.fields.find('service::items');
  assert.deepEqual(items.validators, { rich_text_blocks: { item_types: [text.id, video.id] } });
  const body = await client.fields.find('service::body');
  assert.deepEqual(body.validators, {
    structured_text_blocks: { item_types: [video.id] },
    structured_text_links: {
      on_publish_with_unpublished_references_strategy: 'fail',
      on_reference_unpublish_strategy: 'delete_references',
      on_reference_delete_strategy: 'delete_references',
      item_types: [service.id],
    },
  });
  const referencing = await client.fields.referencing(video.id);
  assert.deepEqual(referencing.map((field) => field.api_key).sort(), ['body', 'items']);
}
