// A later migration on an existing schema: fields renamed and re-validated with the
// generated `fields.update` (only the changed attributes), an editor switched, a field
// type converted (string to text, as the generated two-step update does), fields and a
// whole model deleted.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertFields } from '../../support/migration-schema.ts';

const NEWS = 'MQmZYDvzTVO1OZmu1Gegdw';
const OLD = 'Sse4--stT6OERyFQRBnpqQ';

export default async function (client: Client) {
  // The schema as an earlier migration left it.
  await client.itemTypes.create(
    { id: NEWS, name: 'News', api_key: 'news', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  await client.itemTypes.create(
    {
      id: OLD,
      name: 'Press release',
      api_key: 'press_release',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  await client.fields.create(NEWS, {
    id: 'Y6Dhf3RiSLK_gUuIqzzr0A',
    label: 'Headline',
    field_type: 'string',
    api_key: 'headline',
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
  });
  await client.fields.create(NEWS, {
    id: 'TuPdiNNmR3WlwFC3dTxSiw',
    label: 'Summary',
    field_type: 'string',
    api_key: 'summary',
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
  });
  await client.fields.create(NEWS, {
    id: 'Tp9oJjZHTUWHcc3tqD9svg',
    label: 'Category',
    field_type: 'string',
    api_key: 'category',
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
  });
  await client.fields.create(NEWS, {
    id: 'Mvxg003QRZKm19hhNAqmYw',
    label: 'Legacy id',
    field_type: 'integer',
    api_key: 'legacy_id',
    appearance: { addons: [], editor: 'integer', parameters: { placeholder: null } },
  });

  // Update existing fields/fieldsets

  // Update Single-line string field "Title" (`title`) in model "News" (`news`)
  await client.fields.update('Y6Dhf3RiSLK_gUuIqzzr0A', {
    label: 'Title',
    api_key: 'title',
    hint: 'Keep it under 70 characters',
    validators: { required: {}, length: { max: 70 } },
  });
  // Update Multiple-paragraph text field "Summary" (`summary`) in model "News" (`news`)
  await client.fields.update('TuPdiNNmR3WlwFC3dTxSiw', { field_type: 'text' });
  await client.fields.update('TuPdiNNmR3WlwFC3dTxSiw', {
    appearance: {
      addons: [],
      editor: 'wysiwyg',
      parameters: {
        toolbar: [
          'format',
          'bold',
          'italic',
          'strikethrough',
          'code',
          'ordered_list',
          'unordered_list',
          'quote',
          'table',
          'link',
          'image',
          'show_source',
          'undo',
          'redo',
          'align_left',
          'align_center',
          'align_right',
          'align_justify',
          'outdent',
          'indent',
          'fullscreen',
        ],
      },
    },
    validators: { sanitized_html: { sanitize_before_validation: true } },
  });
  // Update Single-line string field "Category" (`category`) in model "News" (`news`)
  await client.fields.update('Tp9oJjZHTUWHcc3tqD9svg', {
    validators: { enum: { values: ['politics', 'sport', 'culture'] } },
    appearance: {
      addons: [],
      editor: 'string_radio_group',
      parameters: {
        radios: [
          { hint: '', label: 'Politics', value: 'politics' },
          { hint: '', label: 'Sport', value: 'sport' },
          { hint: 'Arts and books', label: 'Culture', value: 'culture' },
        ],
      },
    },
    default_value: 'politics',
  });

  // Delete Integer number field "Legacy id" (`legacy_id`) in model "News" (`news`)
  await client.fields.destroy('Mvxg003QRZKm19hhNAqmYw');
  // Delete model "Press release" (`press_release`)
  await client.itemTypes.destroy(OLD);
}

export async function expect(client: Client) {
  const models = (await client.itemTypes.list()).map((model) => model.api_key);
  assert.deepEqual(models, ['news']);
  const fields = await assertFields(client, 'news', {
    title: {
      id: 'Y6Dhf3RiSLK_gUuIqzzr0A',
      label: 'Title',
      hint: 'Keep it under 70 characters',
      validators: { required: {}, length: { max: 70 } },
      appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
    },
    summary: {
      field_type: 'text',
      validators: { sanitized_html: { sanitize_before_validation: true } },
    },
    category: {
      validators: { enum: { values: ['politics', 'sport', 'culture'] } },
      default_value: 'politics',
    },
  });
  assert.equal(fields.summary.appearance.editor, 'wysiwyg');
  assert.equal(fields.category.appearance.editor, 'string_radio_group');
  // The title kept its place; fields after the deleted one close the gap.
  assert.deepEqual(
    Object.values(fields)
      .sort((a, b) => a.position - b.position)
      .map((field) => field.api_key),
    ['title', 'summary', 'category'],
  );
}
