// Media: single assets and galleries with every upload validator in the shapes the API
// returns them (`extensions: []` next to `predefined_list`, explicit `false` flags), plus
// an external video.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { apiShaped, assertFields } from '../../support/migration-schema.ts';

const PORTFOLIO = 'H6SVXXadTrGBAOdIFoRxGQ';

const GALLERY_VALIDATORS = {
  size: { min: 2, max: 24 },
  file_size: { min_value: 10, min_unit: 'KB', max_value: 20, max_unit: 'MB' },
  image_dimensions: {
    width_min_value: 800,
    width_max_value: 8000,
    height_min_value: 600,
    height_max_value: 8000,
  },
  image_aspect_ratio: {
    min_ar_numerator: 1,
    min_ar_denominator: 1,
    max_ar_numerator: 16,
    max_ar_denominator: 9,
  },
  extension: { extensions: ['jpg', 'jpeg', 'png', 'webp'] },
  required_alt_title: { title: true, alt: true },
};

export default async function (client: Client) {
  // Create model "Portfolio" (`portfolio`)
  await client.itemTypes.create(
    {
      id: PORTFOLIO,
      name: 'Portfolio',
      api_key: 'portfolio',
      collection_appearance: 'table',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Create Single-line string field "Title" (`title`) in model "Portfolio" (`portfolio`)
  await client.fields.create(PORTFOLIO, {
    id: 'fUxQ2hn4QIyCoThPnB0hqA',
    label: 'Title',
    field_type: 'string',
    api_key: 'title',
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
    default_value: '',
  });

  // Create Asset gallery field "Photos" (`photos`) in model "Portfolio" (`portfolio`)
  await client.fields.create(
    PORTFOLIO,
    apiShaped({
      id: 'dg-5nZJrTHeqVYuhGGEiRw',
      label: 'Photos',
      field_type: 'gallery',
      api_key: 'photos',
      validators: GALLERY_VALIDATORS,
      appearance: { addons: [], editor: 'gallery', parameters: {} },
    }),
  );

  // Create Single asset field "Brochure" (`brochure`) in model "Portfolio" (`portfolio`)
  await client.fields.create(
    PORTFOLIO,
    apiShaped({
      id: 'aZq_q_TuRhG6pT-reX2g1Q',
      label: 'Brochure',
      field_type: 'file',
      api_key: 'brochure',
      hint: 'PDF, at most 15 MB',
      validators: {
        extension: { extensions: [], predefined_list: 'document' },
        file_size: { max_value: 15, max_unit: 'MB' },
      },
      appearance: { addons: [], editor: 'file', parameters: {} },
    }),
  );

  // Create Single asset field "Showreel file" (`showreel_file`) in model "Portfolio" (`portfolio`)
  await client.fields.create(
    PORTFOLIO,
    apiShaped({
      id: 'NdmsZjqaQdCIqNH6pYbigw',
      label: 'Showreel file',
      field_type: 'file',
      api_key: 'showreel_file',
      validators: {
        required: {},
        extension: { extensions: [], predefined_list: 'video' },
        file_size: { min_value: 1, min_unit: 'B', max_value: 500, max_unit: 'MB' },
      },
      appearance: { addons: [], editor: 'file', parameters: {} },
    }),
  );

  // Create Single asset field "Logo" (`logo`) in model "Portfolio" (`portfolio`)
  await client.fields.create(PORTFOLIO, {
    id: 'Z5VcttaETDi3wktV1nUJaQ',
    label: 'Logo',
    field_type: 'file',
    api_key: 'logo',
    validators: {
      extension: { extensions: ['svg', 'png'] },
      image_dimensions: { width_max_value: 1024, height_max_value: 1024 },
      image_aspect_ratio: { eq_ar_numerator: 1, eq_ar_denominator: 1 },
      required_alt_title: { title: false, alt: true },
    },
    appearance: { addons: [], editor: 'file', parameters: {} },
  });

  // Create External video field "Showreel" (`showreel`) in model "Portfolio" (`portfolio`)
  await client.fields.create(PORTFOLIO, {
    id: 'cVCaYMbNSyOb_oZv4wKJRw',
    label: 'Showreel',
    field_type: 'video',
    api_key: 'showreel',
    validators: { required: {} },
    appearance: { addons: [], editor: 'video', parameters: {} },
  });
}

export async function expect(client: Client) {
  const fields = await assertFields(client, 'portfolio', {
    title: { field_type: 'string' },
    photos: {
      field_type: 'gallery',
      validators: GALLERY_VALIDATORS,
      appearance: { addons: [], editor: 'gallery', parameters: {} },
    },
    brochure: { field_type: 'file', hint: 'PDF, at most 15 MB' },
    showreel_file: { field_type: 'file' },
    logo: {
      field_type: 'file',
      validators: {
        extension: { extensions: ['svg', 'png'] },
        image_dimensions: { width_max_value: 1024, height_max_value: 1024 },
        image_aspect_ratio: { eq_ar_numerator: 1, eq_ar_denominator: 1 },
        required_alt_title: { title: false, alt: true },
      },
    },
    showreel: {
      field_type: 'video',
      validators: { required: {} },
      appearance: { addons: [], editor: 'video', parameters: {} },
    },
  });
  type Validators = Record<string, Record<string, unknown>>;
  const brochure = fields.brochure?.validators as Validators;
  assert.equal(brochure.extension?.predefined_list, 'document');
  assert.deepEqual(brochure.file_size, { max_value: 15, max_unit: 'MB' });
  const reel = fields.showreel_file?.validators as Validators;
  assert.equal(reel.extension?.predefined_list, 'video');
  assert.deepEqual(reel.required, {});
  assert.deepEqual(reel.file_size, { min_value: 1, min_unit: 'B', max_value: 500, max_unit: 'MB' });
}
