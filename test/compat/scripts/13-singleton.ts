// Singletons: a home page created with `singleton: true`, then marked as having its
// record through the model update (`meta.has_singleton_item`), as generated scripts and
// the requirements do, with no record created.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertFields, findModel } from '../../support/migration-schema.ts';

const HOME = 'dRfJ0v2bQF-aLfq97mBp-A';
const SETTINGS = 'D9qecp0MTIWpeKffSojTUg';

export default async function (client: Client) {
  // Create model "Home page" (`home_page`)
  await client.itemTypes.create(
    {
      id: HOME,
      name: 'Home page',
      singleton: true,
      api_key: 'home_page',
      draft_mode_active: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  // Create model "Settings" (`settings`)
  await client.itemTypes.create(
    {
      id: SETTINGS,
      name: 'Settings',
      singleton: true,
      api_key: 'settings',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Create Single-line string field "Headline" (`headline`) in model "Home page" (`home_page`)
  await client.fields.create(HOME, {
    label: 'Headline',
    field_type: 'string',
    api_key: 'headline',
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
  });
  // Create Single-line string field "Contact email" (`contact_email`) in model "Settings" (`settings`)
  await client.fields.create(SETTINGS, {
    label: 'Contact email',
    field_type: 'string',
    api_key: 'contact_email',
    validators: { required: {}, format: { predefined_pattern: 'email' } },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    default_value: 'hello@example.com',
  });

  await client.itemTypes.update(HOME, { meta: { has_singleton_item: true } });
}

export async function expect(client: Client) {
  const home = await findModel(client, 'home_page');
  assert.equal(home.singleton, true);
  assert.equal(home.draft_mode_active, true);
  assert.equal(home.meta.has_singleton_item, true);
  const settings = await findModel(client, 'settings');
  assert.equal(settings.singleton, true);
  assert.equal(settings.meta.has_singleton_item, false);
  assert.equal(settings.singleton_item, null);
  await assertFields(client, 'settings', {
    contact_email: {
      validators: { required: {}, format: { predefined_pattern: 'email' } },
      default_value: 'hello@example.com',
    },
  });
}
