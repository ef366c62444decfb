// Modular content: block models (created with `modular_block: true`, none of the
// model-only attributes), a "Sections" field taking several blocks, a hero taking one
// block framed and a CTA frameless, and a block nesting other blocks.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { apiShaped, assertFields, findModel } from '../../support/migration-schema.ts';

const LANDING = 'U7r1aaqmS0W3kFU2c2uO_Q';
const HERO = 'aZjfpQylRqm5FyevqOLZ9g';
const TEXT = 'Nn0eXONNQligw40y6MnXgQ';
const GRID = 'fIe_Og8BT86cw8E88XViMg';
const CTA = 'fISypOW4Q_Wlakir5R1yxQ';

function block(id: string, name: string, apiKey: string, hint: string | null = null) {
  return {
    id,
    name,
    api_key: apiKey,
    modular_block: true,
    hint,
    inverse_relationships_enabled: false,
  };
}

export default async function (client: Client) {
  // Create new models/block models

  // Create model "Landing page" (`landing_page`)
  await client.itemTypes.create(
    {
      id: LANDING,
      name: 'Landing page',
      api_key: 'landing_page',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  // Create block model "Hero" (`hero_block`)
  await client.itemTypes.create(block(HERO, 'Hero', 'hero_block', 'Full-width opening'), {
    skip_menu_item_creation: true,
  });
  // Create block model "Text" (`text_block`)
  await client.itemTypes.create(block(TEXT, 'Text', 'text_block'), {
    skip_menu_item_creation: true,
  });
  // Create block model "Grid" (`grid_block`)
  await client.itemTypes.create(block(GRID, 'Grid', 'grid_block'), {
    skip_menu_item_creation: true,
  });
  // Create block model "Call to action" (`cta_block`)
  await client.itemTypes.create(block(CTA, 'Call to action', 'cta_block'), {
    skip_menu_item_creation: true,
  });

  // Creating new fields/fieldsets

  // Create Single-line string field "Heading" (`heading`) in block model "Hero" (`hero_block`)
  await client.fields.create(HERO, {
    id: 'FoPhBL-MReKBT6VjAlvO8A',
    label: 'Heading',
    field_type: 'string',
    api_key: 'heading',
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
    default_value: '',
  });
  // Create Image field "Background" (`background`) in block model "Hero" (`hero_block`)
  await client.fields.create(
    HERO,
    apiShaped({
      id: 'VxxayNDaR4WGpPi91jqKXg',
      label: 'Background',
      field_type: 'file',
      api_key: 'background',
      validators: { extension: { extensions: [], predefined_list: 'transformable_image' } },
      appearance: { addons: [], editor: 'file', parameters: {} },
    }),
  );
  // Create Multiple-paragraph text field "Text" (`text`) in block model "Text" (`text_block`)
  await client.fields.create(TEXT, {
    id: 'OIiUrc7aS8uFe0wXDU1jbw',
    label: 'Text',
    field_type: 'text',
    api_key: 'text',
    validators: { required: {} },
    appearance: {
      addons: [],
      editor: 'wysiwyg',
      parameters: {
        toolbar: [
          'format',
          'bold',
          'italic',
          'strikethrough',
          'ordered_list',
          'unordered_list',
          'link',
        ],
      },
    },
    default_value: '',
  });
  // Create Single-line string field "Label" (`label`) in block model "Call to action" (`cta_block`)
  await client.fields.create(CTA, {
    id: 'G1wbT_vCTAqbBVim1pdxfg',
    label: 'Label',
    field_type: 'string',
    api_key: 'label',
    validators: { required: {}, length: { max: 30 } },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    default_value: '',
  });
  // Create Single-line string field "URL" (`url`) in block model "Call to action" (`cta_block`)
  await client.fields.create(CTA, {
    id: 'XP--fDMrTjG1Jqmnpoe1yg',
    label: 'URL',
    field_type: 'string',
    api_key: 'url',
    validators: { required: {}, format: { predefined_pattern: 'url' } },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    default_value: '',
  });
  // Create Modular Content (Multiple blocks) field "Cells" (`cells`) in block model "Grid" (`grid_block`)
  await client.fields.create(GRID, {
    id: 'WsYf68vBQFS50EcULCfLmQ',
    label: 'Cells',
    field_type: 'rich_text',
    api_key: 'cells',
    validators: { rich_text_blocks: { item_types: [TEXT, CTA] }, size: { min: 2, multiple_of: 2 } },
    appearance: { addons: [], editor: 'rich_text', parameters: { start_collapsed: true } },
  });
  // Create Modular Content (Single block) field "Hero" (`hero`) in model "Landing page" (`landing_page`)
  await client.fields.create(LANDING, {
    id: 'JBH_RDd4TPe-Wt-tZjckoQ',
    label: 'Hero',
    field_type: 'single_block',
    api_key: 'hero',
    validators: { single_block_blocks: { item_types: [HERO] }, required: {} },
    appearance: {
      addons: [],
      editor: 'framed_single_block',
      parameters: { start_collapsed: false },
    },
  });
  // Create Modular Content (Multiple blocks) field "Sections" (`sections`) in model "Landing page" (`landing_page`)
  await client.fields.create(LANDING, {
    id: 'MSbWATfCSXOgklnXg68oHQ',
    label: 'Sections',
    field_type: 'rich_text',
    api_key: 'sections',
    validators: { rich_text_blocks: { item_types: [TEXT, GRID, CTA] }, size: { max: 20 } },
    appearance: { addons: [], editor: 'rich_text', parameters: { start_collapsed: false } },
  });
  // Create Modular Content (Single block) field "Closing" (`closing`) in model "Landing page" (`landing_page`)
  await client.fields.create(LANDING, {
    id: 'c6fyF0ibTq2A5-NN4UzHLQ',
    label: 'Closing',
    field_type: 'single_block',
    api_key: 'closing',
    validators: { single_block_blocks: { item_types: [CTA] } },
    appearance: {
      addons: [],
      editor: 'frameless_single_block',
      parameters: { start_collapsed: false },
    },
  });
}

export async function expect(client: Client) {
  for (const [apiKey, hint] of [
    ['hero_block', 'Full-width opening'],
    ['text_block', null],
    ['grid_block', null],
    ['cta_block', null],
  ] as const) {
    const model = await findModel(client, apiKey);
    assert.equal(model.modular_block, true, apiKey);
    assert.equal(model.hint, hint, apiKey);
  }
  assert.equal((await findModel(client, 'landing_page')).modular_block, false);
  await assertFields(client, 'landing_page', {
    hero: {
      field_type: 'single_block',
      validators: { single_block_blocks: { item_types: [HERO] }, required: {} },
      appearance: {
        addons: [],
        editor: 'framed_single_block',
        parameters: { start_collapsed: false },
      },
    },
    sections: {
      field_type: 'rich_text',
      validators: { rich_text_blocks: { item_types: [TEXT, GRID, CTA] }, size: { max: 20 } },
    },
    closing: {
      validators: { single_block_blocks: { item_types: [CTA] } },
      appearance: {
        addons: [],
        editor: 'frameless_single_block',
        parameters: { start_collapsed: false },
      },
    },
  });
  await assertFields(client, 'grid_block', {
    cells: {
      validators: {
        rich_text_blocks: { item_types: [TEXT, CTA] },
        size: { min: 2, multiple_of: 2 },
      },
      appearance: { addons: [], editor: 'rich_text', parameters: { start_collapsed: true } },
    },
  });
  await assertFields(client, 'cta_block', {
    label: { validators: { required: {}, length: { max: 30 } } },
    url: { validators: { required: {}, format: { predefined_pattern: 'url' } } },
  });
  const hero = await assertFields(client, 'hero_block', {
    heading: { field_type: 'string' },
    background: { field_type: 'file' },
  });
  const extension = (hero.background.validators as Record<string, Record<string, unknown>>)
    .extension;
  assert.equal(extension?.predefined_list, 'transformable_image');
  // Blocks are referenced by the fields that embed them.
  const referencing = await client.fields.referencing(CTA);
  assert.deepEqual(referencing.map((field) => field.api_key).sort(), [
    'cells',
    'closing',
    'sections',
  ]);
}
