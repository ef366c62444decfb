// A whole small project replayed from a newer export: fieldsets first, a block model and
// a modular content field with `deep_filtering_enabled`, a localized site,
// schema menu items and menu items for the new models, and the finalize step.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertAttributes, assertFields, findModel } from '../../support/migration-schema.ts';

const GUIDE = 'UcSCn8fARg2BqYrq08FbtA';
const TOPIC = 'MDWg4RakRQ6__UqVINlYqA';
const GUIDE_TITLE = 'N-KYpso9Tguh9xoqUVqawA';
const TOPIC_NAME = 'Wt3ys5zqTqOL_63TIcnRZg';
const STEP = 'L_BtI4GrR8SA15J6kAYbgg';
const META = 'dWTfNVe4SmGIsbRGMji9mg';
const GUIDE_ENTRY = 'RmJJLJwmSa-oB5nb3S9gQg';
const TOPIC_ENTRY = 'BpyyUSy4R-6grLQnWj7Kpg';

export default async function (client: Client) {
  // Update site
  await client.site.update({ locales: ['en', 'fr'] });

  // Create model "Guide" (`guide`)
  await client.itemTypes.create(
    {
      id: GUIDE,
      name: 'Guide',
      api_key: 'guide',
      draft_mode_active: true,
      draft_saving_active: false,
      all_locales_required: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true, schema_menu_item_id: GUIDE_ENTRY },
  );
  // Create model "Topic" (`topic`)
  await client.itemTypes.create(
    {
      id: TOPIC,
      name: 'Topic',
      api_key: 'topic',
      collection_appearance: 'table',
      inverse_relationships_enabled: true,
    },
    { skip_menu_item_creation: true, schema_menu_item_id: TOPIC_ENTRY },
  );

  // Create block model "Step" (`step`)
  await client.itemTypes.create(
    {
      id: STEP,
      name: 'Step',
      api_key: 'step',
      modular_block: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Create fieldset "Metadata" in model "Guide" (`guide`)
  await client.fieldsets.create(GUIDE, {
    id: META,
    title: 'Metadata',
    collapsible: true,
    start_collapsed: true,
  });

  // Create Single-line string field "Name" (`name`) in model "Topic" (`topic`)
  await client.fields.create(TOPIC, {
    id: TOPIC_NAME,
    label: 'Name',
    field_type: 'string',
    api_key: 'name',
    localized: true,
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
    default_value: { en: '', fr: '' },
  });
  // Create Single-line string field "Title" (`title`) in model "Guide" (`guide`)
  await client.fields.create(GUIDE, {
    id: GUIDE_TITLE,
    label: 'Title',
    field_type: 'string',
    api_key: 'title',
    localized: true,
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
    default_value: { en: null, fr: null },
  });
  // Create Multiple links field "Topics" (`topics`) in model "Guide" (`guide`)
  await client.fields.create(GUIDE, {
    id: 'Z5F2Il8vRiS-_T3MNq7X0Q',
    label: 'Topics',
    field_type: 'links',
    api_key: 'topics',
    validators: {
      items_item_type: {
        on_publish_with_unpublished_references_strategy: 'fail',
        on_reference_unpublish_strategy: 'delete_references',
        on_reference_delete_strategy: 'delete_references',
        item_types: [TOPIC],
      },
    },
    appearance: { addons: [], editor: 'links_select', parameters: {} },
    fieldset: { id: META, type: 'fieldset' },
  });
  // Create Modular Content (Multiple blocks) field "Steps" (`steps`) in model "Guide" (`guide`)
  await client.fields.create(GUIDE, {
    id: 'B2CuKpP_QGiLxwDx-pyT8A',
    label: 'Steps',
    field_type: 'rich_text',
    api_key: 'steps',
    localized: true,
    deep_filtering_enabled: true,
    validators: { rich_text_blocks: { item_types: [STEP] }, size: { min: 1 } },
    appearance: { addons: [], editor: 'rich_text', parameters: { start_collapsed: false } },
    default_value: { en: null, fr: null },
  });
  // Create Boolean field "Featured" (`featured`) in model "Guide" (`guide`)
  await client.fields.create(GUIDE, {
    id: 'bugbC5HkSRKoV67ZWai_0g',
    label: 'Featured',
    field_type: 'boolean',
    api_key: 'featured',
    appearance: { addons: [], editor: 'boolean', parameters: {} },
    default_value: false,
    fieldset: { id: META, type: 'fieldset' },
  });

  // Finalize models/block models
  await client.itemTypes.update(GUIDE, { title_field: { id: GUIDE_TITLE, type: 'field' } });
  await client.itemTypes.update(TOPIC, { title_field: { id: TOPIC_NAME, type: 'field' } });

  // Manage menu items
  const docs = await client.menuItems.create({ label: 'Documentation' });
  await client.menuItems.create({
    label: 'Guides',
    item_type: { id: GUIDE, type: 'item_type' },
    parent: { id: docs.id, type: 'menu_item' },
  });
  await client.menuItems.create({
    label: 'Topics',
    item_type: { id: TOPIC, type: 'item_type' },
    parent: { id: docs.id, type: 'menu_item' },
  });

  // Manage schema menu items
  await client.schemaMenuItems.update(TOPIC_ENTRY, { position: 0 });
  await client.schemaMenuItems.update(GUIDE_ENTRY, { position: 1 });
}

export async function expect(client: Client) {
  assert.deepEqual((await client.site.find()).locales, ['en', 'fr']);
  assertAttributes(
    await findModel(client, 'guide'),
    {
      draft_mode_active: true,
      draft_saving_active: false,
      all_locales_required: true,
      title_field: { type: 'field', id: GUIDE_TITLE },
    },
    'guide',
  );
  assertAttributes(
    await findModel(client, 'topic'),
    { inverse_relationships_enabled: true, title_field: { type: 'field', id: TOPIC_NAME } },
    'topic',
  );
  await assertFields(client, 'guide', {
    title: { localized: true },
    topics: { deep_filtering_enabled: false, fieldset: { type: 'fieldset', id: META } },
    steps: {
      deep_filtering_enabled: true,
      localized: true,
      validators: { rich_text_blocks: { item_types: [STEP] }, size: { min: 1 } },
    },
    featured: { default_value: false, fieldset: { type: 'fieldset', id: META } },
  });
  await assertFields(client, 'topic', { name: { localized: true } });

  const menu = await client.menuItems.list();
  const root = menu.find((item) => item.label === 'Documentation');
  assert.ok(root);
  assert.deepEqual(
    menu
      .filter((item) => item.parent?.id === root.id)
      .map((item) => item.label)
      .sort(),
    ['Guides', 'Topics'],
  );
  const entries = await client.schemaMenuItems.list();
  const topic = entries.find((entry) => entry.id === TOPIC_ENTRY);
  const guide = entries.find((entry) => entry.id === GUIDE_ENTRY);
  assert.ok(topic && guide);
  assert.ok(topic.position < guide.position, 'topic before guide in the schema menu');
}
