// Numbers and dates with their pickers, placeholders and range validators (bounds on
// one side or both, floats with decimals, dates and date-times in the API's formats).
import type { Client } from '@datocms/cma-client-node';
import { assertFields } from '../../support/migration-schema.ts';

const OFFER = 'dNPvaMr8RteE94V4e7tGRQ';

export default async function (client: Client) {
  await client.itemTypes.create(
    { id: OFFER, name: 'Offer', api_key: 'offer', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  await client.fields.create(OFFER, {
    id: 'VVm3B6ViT96-Q2p8PIHFWQ',
    label: 'Quantity',
    field_type: 'integer',
    api_key: 'quantity',
    validators: { required: {}, number_range: { min: 1, max: 99 } },
    appearance: { addons: [], editor: 'integer', parameters: { placeholder: '1' } },
    default_value: 1,
  });
  await client.fields.create(OFFER, {
    id: 'Awk6QCh4QWi5zbVBujzNlg',
    label: 'Discount',
    field_type: 'float',
    api_key: 'discount',
    hint: 'Between 0 and 0.75',
    validators: { number_range: { min: 0, max: 0.75 } },
    appearance: { addons: [], editor: 'float', parameters: { placeholder: null } },
    default_value: 0.1,
  });
  await client.fields.create(OFFER, {
    id: 'ev-JmsS6QNu_sLAePm_Tpw',
    label: 'Rating',
    field_type: 'float',
    api_key: 'rating',
    validators: { required: {} },
    appearance: { addons: [], editor: 'float', parameters: { placeholder: '4.5' } },
  });
  await client.fields.create(OFFER, {
    id: 'UJ7kC7iGQV2E_O_e0B1SGw',
    label: 'Valid from',
    field_type: 'date',
    api_key: 'valid_from',
    validators: { required: {}, date_range: { min: '2024-01-01', max: '2030-12-31' } },
    appearance: { addons: [], editor: 'date_picker', parameters: {} },
    default_value: '2025-01-01',
  });
  await client.fields.create(OFFER, {
    id: 'WBicRLmsTMCm9HhWlKabZg',
    label: 'Valid until',
    field_type: 'date',
    api_key: 'valid_until',
    validators: { date_range: { max: '2030-12-31' } },
    appearance: { addons: [], editor: 'date_picker', parameters: {} },
  });
  await client.fields.create(OFFER, {
    id: 'cSrhoJzMReiUnVhVsCiUjw',
    label: 'Launch',
    field_type: 'date_time',
    api_key: 'launch',
    validators: {
      required: {},
      date_time_range: { min: '2024-01-01T00:00:00+00:00', max: '2030-12-31T23:59:59+00:00' },
    },
    appearance: { addons: [], editor: 'date_time_picker', parameters: {} },
  });
  await client.fields.create(OFFER, {
    id: 'NSoh2lwoTLCqy8cF2B76ag',
    label: 'Reminder',
    field_type: 'date_time',
    api_key: 'reminder',
    validators: { date_time_range: { min: '2024-06-01T09:00:00Z' } },
    appearance: { addons: [], editor: 'date_time_picker', parameters: {} },
    default_value: '2025-06-01T09:00:00+02:00',
  });
}

export async function expect(client: Client) {
  await assertFields(client, 'offer', {
    quantity: {
      field_type: 'integer',
      validators: { required: {}, number_range: { min: 1, max: 99 } },
      appearance: { addons: [], editor: 'integer', parameters: { placeholder: '1' } },
      default_value: 1,
    },
    discount: {
      field_type: 'float',
      validators: { number_range: { min: 0, max: 0.75 } },
      default_value: 0.1,
    },
    rating: { field_type: 'float', validators: { required: {} } },
    valid_from: {
      field_type: 'date',
      validators: { required: {}, date_range: { min: '2024-01-01', max: '2030-12-31' } },
      default_value: '2025-01-01',
    },
    valid_until: { validators: { date_range: { max: '2030-12-31' } } },
    launch: {
      field_type: 'date_time',
      validators: {
        required: {},
        date_time_range: { min: '2024-01-01T00:00:00+00:00', max: '2030-12-31T23:59:59+00:00' },
      },
    },
    reminder: { validators: { date_time_range: { min: '2024-06-01T09:00:00Z' } } },
  });
}
