// A multilingual site: the locales are set first (as the generated "Update site" step
// does), then localized fields carry one default per locale, blank strings included.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertAttributes, assertFields, findModel } from '../../support/migration-schema.ts';

const PAGE = 'dVmV4gvHQ-CtjrNndwneew';
const TITLE = 'UYVbzCI_SMGRk5lPbD2XLQ';

export default async function (client: Client) {
  // Update site
  await client.site.update({ locales: ['en', 'it', 'de'], timezone: 'Europe/Rome' });

  // Create new models/block models

  // Create model "Page" (`page`)
  await client.itemTypes.create(
    {
      id: PAGE,
      name: 'Page',
      api_key: 'page',
      draft_mode_active: true,
      all_locales_required: false,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Creating new fields/fieldsets

  // Create Single-line string field "Title" (`title`) in model "Page" (`page`)
  await client.fields.create(PAGE, {
    id: TITLE,
    label: 'Title',
    field_type: 'string',
    api_key: 'title',
    localized: true,
    validators: { required: {}, length: { max: 100 } },
    appearance: {
      addons: [],
      editor: 'single_line',
      parameters: { heading: true, placeholder: null },
    },
    default_value: { en: '', it: '', de: '' },
  });

  // Create Single-line string field "Tagline" (`tagline`) in model "Page" (`page`)
  await client.fields.create(PAGE, {
    id: 'N3f0G9VoT9Gj2aNujJpnmw',
    label: 'Tagline',
    field_type: 'string',
    api_key: 'tagline',
    localized: true,
    appearance: {
      addons: [],
      editor: 'single_line',
      parameters: { heading: false, placeholder: null },
    },
    default_value: { en: 'Welcome', it: 'Benvenuti', de: 'Willkommen' },
  });

  // Create Multiple-paragraph text field "Body" (`body`) in model "Page" (`page`)
  await client.fields.create(PAGE, {
    id: 'dPWlJzfAQDivm5M6oxFmIw',
    label: 'Body',
    field_type: 'text',
    api_key: 'body',
    localized: true,
    appearance: {
      addons: [],
      editor: 'markdown',
      parameters: {
        toolbar: [
          'heading',
          'bold',
          'italic',
          'strikethrough',
          'code',
          'unordered_list',
          'ordered_list',
          'quote',
          'link',
          'image',
          'fullscreen',
        ],
      },
    },
    default_value: { en: null, it: null, de: null },
  });

  // Create SEO meta tags field "SEO" (`seo`) in model "Page" (`page`)
  await client.fields.create(PAGE, {
    id: 'U5WGMd52T2mVZ8HcwOjfKA',
    label: 'SEO',
    field_type: 'seo',
    api_key: 'seo',
    localized: true,
    validators: {
      required_seo_fields: { title: true, description: false, image: false, twitter_card: false },
      file_size: { max_value: 2, max_unit: 'MB' },
      image_dimensions: { width_min_value: 1200, height_min_value: 630 },
      image_aspect_ratio: { eq_ar_numerator: 40, eq_ar_denominator: 21 },
    },
    appearance: {
      addons: [],
      editor: 'seo',
      parameters: { fields: ['title', 'description', 'image'], previews: ['google', 'facebook'] },
    },
    default_value: { en: null, it: null, de: null },
  });

  // Create Slug field "Slug" (`slug`) in model "Page" (`page`)
  await client.fields.create(PAGE, {
    id: 'J6jnwo5LRbm8gcjvCanfvg',
    label: 'Slug',
    field_type: 'slug',
    api_key: 'slug',
    localized: true,
    validators: {
      slug_title_field: { title_field_id: TITLE },
      slug_format: { custom_pattern: '^[a-z0-9-]+$' },
      length: { min: 2, max: 60 },
      required: {},
      unique: {},
    },
    appearance: {
      addons: [],
      editor: 'slug',
      parameters: { url_prefix: 'https://example.com/', placeholder: 'about-us' },
    },
    default_value: { en: null, it: null, de: null },
  });

  // Finalize models/block models

  // Update model "Page" (`page`)
  await client.itemTypes.update(PAGE, { title_field: { id: TITLE, type: 'field' } });
}

export async function expect(client: Client) {
  const site = await client.site.find();
  assert.deepEqual(site.locales, ['en', 'it', 'de']);
  assert.equal(site.timezone, 'Europe/Rome');

  const page = await findModel(client, 'page');
  assertAttributes(
    page,
    {
      draft_mode_active: true,
      all_locales_required: false,
      title_field: { type: 'field', id: TITLE },
    },
    'page',
  );
  const fields = await assertFields(client, 'page', {
    title: { localized: true, validators: { required: {}, length: { max: 100 } } },
    tagline: {
      localized: true,
      default_value: { en: 'Welcome', it: 'Benvenuti', de: 'Willkommen' },
    },
    body: { localized: true, field_type: 'text' },
    seo: {
      localized: true,
      validators: {
        required_seo_fields: { title: true, description: false, image: false, twitter_card: false },
        file_size: { max_value: 2, max_unit: 'MB' },
        image_dimensions: { width_min_value: 1200, height_min_value: 630 },
        image_aspect_ratio: { eq_ar_numerator: 40, eq_ar_denominator: 21 },
      },
    },
    slug: {
      localized: true,
      validators: {
        slug_title_field: { title_field_id: TITLE },
        slug_format: { custom_pattern: '^[a-z0-9-]+$' },
        length: { min: 2, max: 60 },
        required: {},
        unique: {},
      },
      appearance: {
        addons: [],
        editor: 'slug',
        parameters: { url_prefix: 'https://example.com/', placeholder: 'about-us' },
      },
    },
  });
  // A localized default names every locale of the site.
  for (const field of Object.values(fields)) {
    const value = field.default_value;
    if (value === null) continue;
    assert.deepEqual(Object.keys(value as object).sort(), ['de', 'en', 'it'], field.api_key);
  }
}
