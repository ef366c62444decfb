// Reordering a model's form: the generated way (one `fields.update` per moved field with
// its new `position`, 0 for the first, and the `fieldset` it moves into) and the bulk
// `reorder-fields-and-fieldsets` call, whose first entry is at position 0.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';

const RECIPE = 'QR-RCZ6gRMuRLl2JYpIzOQ';
const META = 'YyEh5q6ERLODPkcp3IkSaA';
const TITLE = 'W7rgJc80Ri6B090D3Ds-5w';
const INTRO = 'U8HoG5HbSHuqEyH0OSzZRw';
const SERVINGS = 'aKypWfKlS--yQ5aYjDPAzg';
const MINUTES = 'VvZ_hYIJTWmnAUFwhnw39A';
const VEGAN = 'R6VixgruTiqGX4PlwY70Xw';

function stringField(id: string, label: string, apiKey: string) {
  return {
    id,
    label,
    field_type: 'string' as const,
    api_key: apiKey,
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
  };
}

export default async function (client: Client) {
  await client.itemTypes.create(
    { id: RECIPE, name: 'Recipe', api_key: 'recipe', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  await client.fieldsets.create(RECIPE, { id: META, title: 'Facts', collapsible: true });
  await client.fields.create(RECIPE, stringField(TITLE, 'Title', 'title'));
  await client.fields.create(RECIPE, stringField(INTRO, 'Intro', 'intro'));
  await client.fields.create(RECIPE, {
    id: SERVINGS,
    label: 'Servings',
    field_type: 'integer',
    api_key: 'servings',
    validators: { number_range: { min: 1, max: 24 } },
    appearance: { addons: [], editor: 'integer', parameters: { placeholder: null } },
    default_value: 2,
  });
  await client.fields.create(RECIPE, {
    id: MINUTES,
    label: 'Minutes',
    field_type: 'integer',
    api_key: 'minutes',
    appearance: { addons: [], editor: 'integer', parameters: { placeholder: null } },
  });
  await client.fields.create(RECIPE, {
    id: VEGAN,
    label: 'Vegan',
    field_type: 'boolean',
    api_key: 'vegan',
    appearance: {
      addons: [],
      editor: 'boolean_radio_group',
      parameters: {
        positive_radio: { label: 'Vegan', hint: 'No animal products' },
        negative_radio: { label: 'Not vegan', hint: '' },
      },
    },
    default_value: false,
  });

  // Update existing fields/fieldsets (as generated: one call per moved field)
  await client.fields.update(SERVINGS, { position: 0, fieldset: { id: META, type: 'fieldset' } });
  await client.fields.update(MINUTES, { position: 1, fieldset: { id: META, type: 'fieldset' } });
  await client.fields.update(VEGAN, { position: 2, fieldset: { id: META, type: 'fieldset' } });

  // Then the whole top level at once: the fieldset first, intro before title.
  await client.itemTypes.rawReorderFieldsAndFieldsets(RECIPE, {
    data: [
      { id: META, type: 'fieldset', attributes: { position: 0 } },
      {
        id: INTRO,
        type: 'field',
        attributes: { position: 1 },
        relationships: { fieldset: { data: null } },
      },
      {
        id: TITLE,
        type: 'field',
        attributes: { position: 2 },
        relationships: { fieldset: { data: null } },
      },
    ],
  });
}

export async function expect(client: Client) {
  const fields = await client.fields.list(RECIPE);
  const [fieldset] = await client.fieldsets.list(RECIPE);
  assert.ok(fieldset);
  const inside = fields
    .filter((field) => field.fieldset?.id === META)
    .sort((a, b) => a.position - b.position)
    .map((field) => field.api_key);
  assert.deepEqual(inside, ['servings', 'minutes', 'vegan']);
  const top = [
    ...fields.filter((field) => field.fieldset === null),
    { api_key: 'facts', position: fieldset.position },
  ]
    .sort((a, b) => a.position - b.position)
    .map((entry) => entry.api_key);
  assert.deepEqual(top, ['facts', 'intro', 'title']);
  const vegan = fields.find((field) => field.api_key === 'vegan');
  assert.deepEqual(vegan?.appearance, {
    addons: [],
    editor: 'boolean_radio_group',
    parameters: {
      positive_radio: { label: 'Vegan', hint: 'No animal products' },
      negative_radio: { label: 'Not vegan', hint: '' },
    },
  });
  assert.equal(vegan?.default_value, false);
}
