// Fieldsets as generated scripts create them (collapsible, start collapsed, with hints),
// fields placed in them with `fieldset` and `position` counted from 0 inside each one,
// then a fieldset renamed and one removed.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertFields } from '../../support/migration-schema.ts';

const EVENT = 'IAC5hAhlRZOqC6EOfFnthw';
const DETAILS = 'MJO-MUZRTgOgGBU-0PDMlQ';
const VENUE = 'BPolFv8uTTK08OhdK42LCA';
const LEGACY = 'TcmydB3-QaOqiENC_DipRQ';

export default async function (client: Client) {
  // Create model "Event" (`event`)
  await client.itemTypes.create(
    { id: EVENT, name: 'Event', api_key: 'event', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );

  // Create fieldset "Details" in model "Event" (`event`)
  await client.fieldsets.create(EVENT, { id: DETAILS, title: 'Details' });
  // Create fieldset "Venue" in model "Event" (`event`)
  await client.fieldsets.create(EVENT, {
    id: VENUE,
    title: 'Venue',
    hint: 'Where the event takes place',
    collapsible: true,
    start_collapsed: true,
  });
  // Create fieldset "Legacy" in model "Event" (`event`)
  await client.fieldsets.create(EVENT, { id: LEGACY, title: 'Legacy', collapsible: true });

  // Create Single-line string field "Name" (`name`) in model "Event" (`event`)
  await client.fields.create(EVENT, {
    id: 'JWfOZcLYTtKa7n-9dGx9nA',
    label: 'Name',
    field_type: 'string',
    api_key: 'name',
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
    default_value: '',
    position: 0,
    fieldset: { id: DETAILS, type: 'fieldset' },
  });
  // Create Date field "Day" (`day`) in model "Event" (`event`)
  await client.fields.create(EVENT, {
    id: 'ElAcVaP1RROw6qf_C5fEEQ',
    label: 'Day',
    field_type: 'date',
    api_key: 'day',
    validators: { required: {}, date_range: { min: '2024-01-01' } },
    appearance: { addons: [], editor: 'date_picker', parameters: {} },
    position: 1,
    fieldset: { id: DETAILS, type: 'fieldset' },
  });
  // Create Single-line string field "Venue name" (`venue_name`) in model "Event" (`event`)
  await client.fields.create(EVENT, {
    id: 'OxjuEk_kQQGk9Ffl5fcwVA',
    label: 'Venue name',
    field_type: 'string',
    api_key: 'venue_name',
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    default_value: '',
    position: 0,
    fieldset: { id: VENUE, type: 'fieldset' },
  });
  // Create Geolocation field "Coordinates" (`coordinates`) in model "Event" (`event`)
  await client.fields.create(EVENT, {
    id: 'PGsmyxqfRp6SERu0_7UnIA',
    label: 'Coordinates',
    field_type: 'lat_lon',
    api_key: 'coordinates',
    appearance: { addons: [], editor: 'map', parameters: {} },
    position: 1,
    fieldset: { id: VENUE, type: 'fieldset' },
  });
  // Create Single-line string field "Old code" (`old_code`) in model "Event" (`event`)
  await client.fields.create(EVENT, {
    id: 'WcYuyUd0RGWpD7grTmsNHQ',
    label: 'Old code',
    field_type: 'string',
    api_key: 'old_code',
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    position: 0,
    fieldset: { id: LEGACY, type: 'fieldset' },
  });

  // Update fieldset "Details" in model "Event" (`event`)
  await client.fieldsets.update(DETAILS, { title: 'Event details', collapsible: true });
  // Delete Single-line string field "Old code" (`old_code`) in model "Event" (`event`)
  await client.fields.destroy('WcYuyUd0RGWpD7grTmsNHQ');
  // Delete fieldset "Legacy" in model "Event" (`event`)
  await client.fieldsets.destroy(LEGACY);
}

export async function expect(client: Client) {
  const fieldsets = await client.fieldsets.list(EVENT);
  const byId = Object.fromEntries(fieldsets.map((fieldset) => [fieldset.id, fieldset]));
  assert.deepEqual(Object.keys(byId).sort(), [DETAILS, VENUE].sort());
  assert.equal(byId[DETAILS]?.title, 'Event details');
  assert.equal(byId[DETAILS]?.collapsible, true);
  assert.equal(byId[DETAILS]?.start_collapsed, false);
  assert.equal(byId[DETAILS]?.hint, null);
  assert.equal(byId[VENUE]?.hint, 'Where the event takes place');
  assert.equal(byId[VENUE]?.collapsible, true);
  assert.equal(byId[VENUE]?.start_collapsed, true);

  const fields = await assertFields(client, 'event', {
    name: { fieldset: { type: 'fieldset', id: DETAILS } },
    day: {
      fieldset: { type: 'fieldset', id: DETAILS },
      validators: { required: {}, date_range: { min: '2024-01-01' } },
    },
    venue_name: { fieldset: { type: 'fieldset', id: VENUE } },
    coordinates: { fieldset: { type: 'fieldset', id: VENUE }, field_type: 'lat_lon' },
  });
  // Inside each fieldset the fields keep the order the script gave them.
  assert.ok((fields.name?.position ?? 0) < (fields.day?.position ?? 0));
  assert.ok((fields.venue_name?.position ?? 0) < (fields.coordinates?.position ?? 0));
}
