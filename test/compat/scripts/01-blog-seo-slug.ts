// A blog as `migrations:new --autogenerate` writes it from a real project (SEO, slug,
// structured text with a quote block): models and the block model created
// with client-chosen ids and `skip_menu_item_creation`, fields in position order with the
// slug last, legacy `appearance.type`, blank string defaults, then the model finalized
// with its presentation fields.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import {
  apiShaped,
  assertAttributes,
  assertFields,
  findModel,
  ref,
} from '../../support/migration-schema.ts';

const POST = 'DFts30uESVClLmwl9l5ivA';
const AUTHOR = 'ZPL0GN-bTcaX9V0CoOkqGw';
const TITLE = 'V7pg0geoSouWqek10h9gDQ';
const COVER = 'LjN-K4iARaarQI7rXDo5JQ';
const EXCERPT = 'JTC43zO_QECE5mPCFa66hg';
const AUTHOR_NAME = 'Y82_Mw7LRV2799gG4piNuA';
const QUOTE = 'MfralMIXS9C_OTniMjzyWw';

const CONTENT_VALIDATORS = {
  required: {},
  structured_text_blocks: { item_types: [QUOTE] },
  structured_text_links: {
    on_publish_with_unpublished_references_strategy: 'fail' as const,
    on_reference_unpublish_strategy: 'delete_references' as const,
    on_reference_delete_strategy: 'delete_references' as const,
    item_types: [POST, AUTHOR],
  },
};

export default async function (client: Client) {
  // Create new models/block models

  // Create model "Author" (`author`)
  await client.itemTypes.create(
    {
      id: AUTHOR,
      name: 'Author',
      api_key: 'author',
      collection_appearance: 'table',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Create model "Blog post" (`blog_post`)
  await client.itemTypes.create(
    {
      id: POST,
      name: 'Blog post',
      api_key: 'blog_post',
      draft_mode_active: true,
      all_locales_required: true,
      hint: 'Articles published on the blog',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Create block model "Quote" (`quote_block`)
  await client.itemTypes.create(
    {
      id: QUOTE,
      name: 'Quote',
      api_key: 'quote_block',
      modular_block: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Creating new fields/fieldsets

  // Create Multiple-paragraph text field "Quote" (`quote`) in block model "Quote" (`quote_block`)
  await client.fields.create(QUOTE, {
    id: 'RyVmR5lvT0S-nKXf-TAg4Q',
    label: 'Quote',
    field_type: 'text',
    api_key: 'quote',
    validators: { required: {} },
    appearance: { addons: [], editor: 'textarea', parameters: { placeholder: null } },
    default_value: '',
  });

  // Create Single-line string field "Name" (`name`) in model "Author" (`author`)
  await client.fields.create(
    AUTHOR,
    apiShaped({
      id: AUTHOR_NAME,
      label: 'Name',
      field_type: 'string',
      api_key: 'name',
      validators: { required: {} },
      appearance: {
        addons: [],
        editor: 'single_line',
        parameters: { heading: true, placeholder: null },
        type: 'title',
      },
      default_value: '',
    }),
  );

  // Create Single-line string field "Title" (`title`) in model "Blog post" (`blog_post`)
  await client.fields.create(
    POST,
    apiShaped({
      id: TITLE,
      label: 'Title',
      field_type: 'string',
      api_key: 'title',
      validators: { required: {}, unique: {}, length: { max: 120 } },
      appearance: {
        addons: [],
        editor: 'single_line',
        parameters: { heading: true, placeholder: null },
        type: 'title',
      },
      default_value: '',
    }),
  );

  // Create Single asset field "Cover" (`cover`) in model "Blog post" (`blog_post`)
  await client.fields.create(
    POST,
    apiShaped({
      id: COVER,
      label: 'Cover',
      field_type: 'file',
      api_key: 'cover',
      validators: {
        required: {},
        extension: { extensions: [], predefined_list: 'image' },
        required_alt_title: { title: false, alt: true },
      },
      appearance: { addons: [], editor: 'file', parameters: {} },
    }),
  );

  // Create Multiple-paragraph text field "Excerpt" (`excerpt`) in model "Blog post" (`blog_post`)
  await client.fields.create(
    POST,
    apiShaped({
      id: EXCERPT,
      label: 'Excerpt',
      field_type: 'text',
      api_key: 'excerpt',
      hint: 'One or two sentences for listings',
      validators: { length: { max: 300 } },
      appearance: {
        addons: [],
        editor: 'textarea',
        parameters: { placeholder: null },
        type: 'textarea',
      },
      default_value: '',
    }),
  );

  // Create Single link field "Author" (`author`) in model "Blog post" (`blog_post`)
  await client.fields.create(POST, {
    id: 'S04pQK58T1aZjhZyh3WckA',
    label: 'Author',
    field_type: 'link',
    api_key: 'author',
    validators: {
      item_item_type: {
        on_publish_with_unpublished_references_strategy: 'fail',
        on_reference_unpublish_strategy: 'delete_references',
        on_reference_delete_strategy: 'delete_references',
        item_types: [AUTHOR],
      },
      required: {},
    },
    appearance: { addons: [], editor: 'link_select', parameters: {} },
  });

  // Create Structured text field "Content" (`content`) in model "Blog post" (`blog_post`)
  await client.fields.create(POST, {
    id: 'EurOHhJ9TC2eT6AknwVVLw',
    label: 'Content',
    field_type: 'structured_text',
    api_key: 'content',
    validators: CONTENT_VALIDATORS,
    appearance: {
      addons: [],
      editor: 'structured_text',
      parameters: {
        marks: ['strong', 'code', 'emphasis', 'underline', 'strikethrough', 'highlight'],
        nodes: ['blockquote', 'code', 'heading', 'link', 'list', 'thematicBreak'],
        heading_levels: [2, 3, 4],
        blocks_start_collapsed: false,
        show_links_meta_editor: false,
        show_links_target_blank: true,
      },
    },
    default_value: null,
  });

  // Create DateTime field "Published at" (`published_at`) in model "Blog post" (`blog_post`)
  await client.fields.create(POST, {
    id: 'blmOxyuvQiaFpJY4_HbVgA',
    label: 'Published at',
    field_type: 'date_time',
    api_key: 'published_at',
    validators: { required: {} },
    appearance: { addons: [], editor: 'date_time_picker', parameters: {} },
  });

  // Create SEO meta tags field "SEO" (`seo`) in model "Blog post" (`blog_post`)
  await client.fields.create(POST, {
    id: 'GNrNIqTUQFqMAs7KVSno6A',
    label: 'SEO',
    field_type: 'seo',
    api_key: 'seo',
    validators: {
      required_seo_fields: { title: true, description: true, image: false, twitter_card: false },
      title_length: { max: 60 },
      description_length: { min: 50, max: 160 },
    },
    appearance: {
      addons: [],
      editor: 'seo',
      parameters: {
        fields: ['title', 'description', 'image', 'no_index', 'twitter_card'],
        previews: ['google', 'twitter', 'slack', 'whatsapp', 'telegram', 'facebook', 'linkedin'],
      },
    },
  });

  // Create Slug field "Slug" (`slug`) in model "Blog post" (`blog_post`)
  await client.fields.create(POST, {
    id: 'cUATd6KdRpah4A1QufBdPg',
    label: 'Slug',
    field_type: 'slug',
    api_key: 'slug',
    validators: {
      slug_title_field: { title_field_id: TITLE },
      slug_format: { predefined_pattern: 'webpage_slug' },
      required: {},
      unique: {},
    },
    appearance: { addons: [], editor: 'slug', parameters: { url_prefix: null } },
  });

  // Finalize models/block models

  // Update model "Author" (`author`)
  await client.itemTypes.update(AUTHOR, {
    title_field: { id: AUTHOR_NAME, type: 'field' },
  });

  // Update model "Blog post" (`blog_post`)
  await client.itemTypes.update(POST, {
    title_field: { id: TITLE, type: 'field' },
    image_preview_field: { id: COVER, type: 'field' },
    excerpt_field: { id: EXCERPT, type: 'field' },
    presentation_title_field: { id: TITLE, type: 'field' },
    presentation_image_field: { id: COVER, type: 'field' },
  });
}

export async function expect(client: Client) {
  const post = await findModel(client, 'blog_post');
  assertAttributes(
    post,
    {
      id: POST,
      name: 'Blog post',
      draft_mode_active: true,
      all_locales_required: true,
      hint: 'Articles published on the blog',
      modular_block: false,
      title_field: ref('field', TITLE),
      image_preview_field: ref('field', COVER),
      excerpt_field: ref('field', EXCERPT),
      presentation_title_field: ref('field', TITLE),
      presentation_image_field: ref('field', COVER),
    },
    'blog_post',
  );
  const author = await findModel(client, 'author');
  assertAttributes(
    author,
    { id: AUTHOR, collection_appearance: 'table', title_field: ref('field', AUTHOR_NAME) },
    'author',
  );

  const fields = await assertFields(client, 'blog_post', {
    title: {
      id: TITLE,
      field_type: 'string',
      validators: { required: {}, unique: {}, length: { max: 120 } },
    },
    cover: { field_type: 'file', appearance: { addons: [], editor: 'file', parameters: {} } },
    excerpt: { field_type: 'text', hint: 'One or two sentences for listings' },
    author: {
      field_type: 'link',
      validators: {
        item_item_type: {
          on_publish_with_unpublished_references_strategy: 'fail',
          on_reference_unpublish_strategy: 'delete_references',
          on_reference_delete_strategy: 'delete_references',
          item_types: [AUTHOR],
        },
        required: {},
      },
      appearance: { addons: [], editor: 'link_select', parameters: {} },
    },
    content: { field_type: 'structured_text', validators: CONTENT_VALIDATORS },
    published_at: { field_type: 'date_time', validators: { required: {} } },
    seo: {
      field_type: 'seo',
      validators: {
        required_seo_fields: { title: true, description: true, image: false, twitter_card: false },
        title_length: { max: 60 },
        description_length: { min: 50, max: 160 },
      },
    },
    slug: {
      field_type: 'slug',
      validators: {
        slug_title_field: { title_field_id: TITLE },
        slug_format: { predefined_pattern: 'webpage_slug' },
        required: {},
        unique: {},
      },
    },
  });
  // Created in this order, the slug last: positions follow creation.
  const order = Object.values(fields)
    .sort((a, b) => a.position - b.position)
    .map((field) => field.api_key);
  assert.deepEqual(order, [
    'title',
    'cover',
    'excerpt',
    'author',
    'content',
    'published_at',
    'seo',
    'slug',
  ]);
  const cover = fields.cover.validators as Record<string, Record<string, unknown>>;
  assert.deepEqual(cover.required_alt_title, { title: false, alt: true });
  assert.equal(cover.extension?.predefined_list, 'image');
  // The legacy `appearance.type` is accepted and not echoed back.
  assert.equal((fields.title.appearance as Record<string, unknown>).type, undefined);
}
