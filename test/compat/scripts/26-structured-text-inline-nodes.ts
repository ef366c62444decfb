// Structured text fields of newer projects list the `inlineItem` and `itemLink` nodes in
// the editor's `nodes` (records mentioned inline and linked from text), as the API returns
// them and `migrations:new --autogenerate` replays them.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { apiShaped } from '../../support/migration-schema.ts';

const PAGE = 'Y4AHI3QUQSuTM4xk3dHxiA';
const CARD = 'PbR7ccodTf2tUpG5mYXG3Q';

const NODES = [
  'blockquote',
  'code',
  'heading',
  'inlineItem',
  'itemLink',
  'link',
  'list',
  'thematicBreak',
];

export default async function (client: Client) {
  await client.itemTypes.create(
    { id: PAGE, name: 'Page', api_key: 'page', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  await client.itemTypes.create(
    {
      id: CARD,
      name: 'Card grid',
      api_key: 'card_grid',
      modular_block: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Create Structured text field "Text" (`text`) in model "Page" (`page`)
  await client.fields.create(
    PAGE,
    apiShaped({
      id: 'BVZ6eqRRS8GuMNQJi4w80w',
      label: 'Text',
      field_type: 'structured_text',
      api_key: 'text',
      validators: {
        structured_text_blocks: { item_types: [CARD] },
        structured_text_inline_blocks: { item_types: [] },
        structured_text_links: {
          on_publish_with_unpublished_references_strategy: 'fail',
          on_reference_unpublish_strategy: 'delete_references',
          on_reference_delete_strategy: 'delete_references',
          item_types: [PAGE],
        },
      },
      appearance: {
        addons: [],
        editor: 'structured_text',
        parameters: {
          marks: ['strong', 'code', 'emphasis', 'underline', 'strikethrough', 'highlight'],
          nodes: NODES,
          heading_levels: [1, 2, 3, 4, 5, 6],
          blocks_start_collapsed: false,
          show_links_meta_editor: false,
          show_links_target_blank: true,
        },
      },
      default_value: null,
    }),
  );
}

export async function expect(client: Client) {
  const text = await client.fields.find('page::text');
  assert.deepEqual((text.appearance.parameters as { nodes: string[] }).nodes, NODES);
}
