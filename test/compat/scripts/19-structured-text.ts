// Structured text as the API returns it: blocks, inline blocks and record links (empty
// lists included), every strategy, all nodes and marks or a narrow subset with no
// heading levels.
import type { Client } from '@datocms/cma-client-node';
import { assertFields } from '../../support/migration-schema.ts';

const ARTICLE = 'BXqoHBI1TNWvgIaKXZ6WvA';
const PERSON = 'Wv8F-yZyT-WiTeJHrQX7qg';
const IMAGE_BLOCK = 'DV--i1ZFR3uWMrAl_AAQ-A';
const MENTION_BLOCK = 'JZhuDzk_RraV9z2P-elIMQ';

const ALL_MARKS = ['strong', 'code', 'emphasis', 'underline', 'strikethrough', 'highlight'];
const ALL_NODES = ['blockquote', 'code', 'heading', 'link', 'list', 'thematicBreak'];

function links(itemTypes: string[]) {
  return {
    on_publish_with_unpublished_references_strategy: 'fail',
    on_reference_unpublish_strategy: 'delete_references',
    on_reference_delete_strategy: 'delete_references',
    item_types: itemTypes,
  } as const;
}

const BODY_VALIDATORS = {
  required: {},
  length: { max: 20000 },
  structured_text_blocks: { item_types: [IMAGE_BLOCK] },
  structured_text_inline_blocks: { item_types: [MENTION_BLOCK] },
  structured_text_links: links([ARTICLE, PERSON]),
};

export default async function (client: Client) {
  await client.itemTypes.create(
    { id: ARTICLE, name: 'Story', api_key: 'story', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  await client.itemTypes.create(
    { id: PERSON, name: 'Person', api_key: 'person', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  await client.itemTypes.create(
    {
      id: IMAGE_BLOCK,
      name: 'Image',
      api_key: 'image_block',
      modular_block: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  await client.itemTypes.create(
    {
      id: MENTION_BLOCK,
      name: 'Mention',
      api_key: 'mention_block',
      modular_block: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  await client.fields.create(IMAGE_BLOCK, {
    id: 'dSuFAOgqSBuR9E3bqe4Bww',
    label: 'Image',
    field_type: 'file',
    api_key: 'image',
    validators: { required: {} },
    appearance: { addons: [], editor: 'file', parameters: {} },
  });

  await client.fields.create(ARTICLE, {
    id: 'Qm0JiqKETYuXiJxV5tfI9Q',
    label: 'Body',
    field_type: 'structured_text',
    api_key: 'body',
    validators: BODY_VALIDATORS,
    appearance: {
      addons: [],
      editor: 'structured_text',
      parameters: {
        marks: ALL_MARKS,
        nodes: ALL_NODES,
        heading_levels: [1, 2, 3, 4, 5, 6],
        blocks_start_collapsed: true,
        show_links_meta_editor: true,
        show_links_target_blank: true,
      },
    },
    default_value: null,
  });
  await client.fields.create(ARTICLE, {
    id: 'G4L_kn7STymq2ZrQ_-kjDA',
    label: 'Standfirst',
    field_type: 'structured_text',
    api_key: 'standfirst',
    validators: {
      structured_text_blocks: { item_types: [] },
      structured_text_links: links([]),
    },
    appearance: {
      addons: [],
      editor: 'structured_text',
      parameters: {
        marks: ['strong', 'emphasis'],
        nodes: ['link'],
        heading_levels: [],
        blocks_start_collapsed: false,
        show_links_meta_editor: false,
        show_links_target_blank: true,
      },
    },
  });
}

export async function expect(client: Client) {
  await assertFields(client, 'story', {
    body: {
      field_type: 'structured_text',
      validators: BODY_VALIDATORS,
      appearance: {
        addons: [],
        editor: 'structured_text',
        parameters: {
          marks: ALL_MARKS,
          nodes: ALL_NODES,
          heading_levels: [1, 2, 3, 4, 5, 6],
          blocks_start_collapsed: true,
          show_links_meta_editor: true,
          show_links_target_blank: true,
        },
      },
    },
    standfirst: {
      validators: {
        structured_text_blocks: { item_types: [] },
        structured_text_links: links([]),
      },
    },
  });
}
