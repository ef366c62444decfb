// The small types with every editor: booleans as a switch and as a radio group, JSON as
// raw JSON, a multi-select and a checkbox group, colours with and without alpha, and a
// required map location.
import type { Client } from '@datocms/cma-client-node';
import { assertFields } from '../../support/migration-schema.ts';

const VENUE = 'X88rLOPtR-mpswwPiIV_7A';

const FEATURES = [
  { hint: '', label: 'Wi-Fi', value: 'wifi' },
  { hint: '', label: 'Parking', value: 'parking' },
  { hint: 'Step-free access', label: 'Accessible', value: 'accessible' },
];

export default async function (client: Client) {
  await client.itemTypes.create(
    { id: VENUE, name: 'Venue', api_key: 'venue', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  await client.fields.create(VENUE, {
    id: 'UR_UKYe8Tv6C9aWVcgsfjw',
    label: 'Open',
    field_type: 'boolean',
    api_key: 'open',
    appearance: { addons: [], editor: 'boolean', parameters: {} },
    default_value: false,
  });
  await client.fields.create(VENUE, {
    id: 'RY_m5TXWSK2xGdUG3Ql20g',
    label: 'Indoor',
    field_type: 'boolean',
    api_key: 'indoor',
    appearance: {
      addons: [],
      editor: 'boolean_radio_group',
      parameters: {
        positive_radio: { hint: '', label: 'Indoor' },
        negative_radio: { hint: '', label: 'Outdoor' },
      },
    },
    default_value: null,
  });
  await client.fields.create(VENUE, {
    id: 'KKCHGDXLSrOobbLjC5fkfg',
    label: 'Opening hours',
    field_type: 'json',
    api_key: 'opening_hours',
    validators: { required: {} },
    appearance: { addons: [], editor: 'json', parameters: {} },
    default_value: '{"mon":"9-17"}',
  });
  await client.fields.create(VENUE, {
    id: 'dOXIPpR5Qyaal0YweUvGrA',
    label: 'Features',
    field_type: 'json',
    api_key: 'features',
    appearance: { addons: [], editor: 'string_checkbox_group', parameters: { options: FEATURES } },
  });
  await client.fields.create(VENUE, {
    id: 'ZiO-pjxTSnOFVqAFOBS6Qw',
    label: 'Audiences',
    field_type: 'json',
    api_key: 'audiences',
    appearance: {
      addons: [],
      editor: 'string_multi_select',
      parameters: {
        options: [
          { hint: '', label: 'Families', value: 'families' },
          { hint: '', label: 'Students', value: 'students' },
        ],
      },
    },
  });
  await client.fields.create(VENUE, {
    id: 'bq5tIfEOShCbDx5bxX9stg',
    label: 'Brand colour',
    field_type: 'color',
    api_key: 'brand_colour',
    validators: { required: {} },
    appearance: {
      addons: [],
      editor: 'color_picker',
      parameters: { enable_alpha: true, preset_colors: [] },
    },
  });
  await client.fields.create(VENUE, {
    id: 'aT1r3xNqS96sIQu5LWe2Pw',
    label: 'Location',
    field_type: 'lat_lon',
    api_key: 'location',
    validators: { required: {} },
    appearance: { addons: [], editor: 'map', parameters: {} },
  });
}

export async function expect(client: Client) {
  await assertFields(client, 'venue', {
    open: { field_type: 'boolean', default_value: false, validators: {} },
    indoor: {
      appearance: {
        addons: [],
        editor: 'boolean_radio_group',
        parameters: {
          positive_radio: { hint: '', label: 'Indoor' },
          negative_radio: { hint: '', label: 'Outdoor' },
        },
      },
      default_value: null,
    },
    opening_hours: {
      field_type: 'json',
      validators: { required: {} },
      default_value: '{"mon":"9-17"}',
    },
    features: {
      appearance: {
        addons: [],
        editor: 'string_checkbox_group',
        parameters: { options: FEATURES },
      },
    },
    audiences: { field_type: 'json' },
    brand_colour: {
      validators: { required: {} },
      appearance: {
        addons: [],
        editor: 'color_picker',
        parameters: { enable_alpha: true, preset_colors: [] },
      },
    },
    location: { field_type: 'lat_lon', validators: { required: {} } },
  });
}
