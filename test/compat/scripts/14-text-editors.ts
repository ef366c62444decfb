// Multiple-paragraph text with each editor as older and newer projects return it: the
// legacy `appearance.type` beside `editor`, full and partial toolbars, and every text
// validator.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { apiShaped, assertFields } from '../../support/migration-schema.ts';

const DOC = 'XUvslaiKQxqW7roVg_JEFQ';

const MARKDOWN_TOOLBAR = [
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
];

export default async function (client: Client) {
  await client.itemTypes.create(
    {
      id: DOC,
      name: 'Documentation page',
      api_key: 'doc_page',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Create Multiple-paragraph text field "Body" (`body`) in model "Documentation page" (`doc_page`)
  await client.fields.create(
    DOC,
    apiShaped({
      label: 'Body',
      field_type: 'text',
      api_key: 'body',
      validators: { required: {}, length: { min: 20 } },
      appearance: {
        addons: [],
        editor: 'markdown',
        parameters: { toolbar: MARKDOWN_TOOLBAR },
        type: 'markdown',
      },
      default_value: '',
    }),
  );
  // Create Multiple-paragraph text field "Notes" (`notes`) in model "Documentation page" (`doc_page`)
  await client.fields.create(
    DOC,
    apiShaped({
      label: 'Notes',
      field_type: 'text',
      api_key: 'notes',
      validators: {
        sanitized_html: { sanitize_before_validation: false },
        length: { max: 5000 },
      },
      appearance: {
        addons: [],
        editor: 'wysiwyg',
        parameters: {
          toolbar: [
            'format',
            'bold',
            'italic',
            'strikethrough',
            'ordered_list',
            'unordered_list',
            'quote',
            'table',
            'link',
            'image',
            'show_source',
            'fullscreen',
          ],
        },
        type: 'wysiwyg',
      },
      default_value: '',
    }),
  );
  // Create Multiple-paragraph text field "Plain summary" (`plain_summary`) in model "Documentation page" (`doc_page`)
  await client.fields.create(
    DOC,
    apiShaped({
      label: 'Plain summary',
      field_type: 'text',
      api_key: 'plain_summary',
      hint: 'No markup: shown in search results',
      validators: {
        format: { custom_pattern: '^[^<>]*$', description: 'No angle brackets' },
        length: { eq: 160 },
      },
      appearance: {
        addons: [],
        editor: 'textarea',
        parameters: { placeholder: 'One paragraph' },
        type: 'textarea',
      },
      default_value: '',
    }),
  );
  // Create Multiple-paragraph text field "Changelog" (`changelog`) in model "Documentation page" (`doc_page`)
  await client.fields.create(DOC, {
    label: 'Changelog',
    field_type: 'text',
    api_key: 'changelog',
    appearance: { addons: [], editor: 'markdown', parameters: { toolbar: [] } },
  });
}

export async function expect(client: Client) {
  const fields = await assertFields(client, 'doc_page', {
    body: {
      validators: { required: {}, length: { min: 20 } },
      appearance: { addons: [], editor: 'markdown', parameters: { toolbar: MARKDOWN_TOOLBAR } },
    },
    notes: {
      validators: {
        sanitized_html: { sanitize_before_validation: false },
        length: { max: 5000 },
      },
    },
    plain_summary: {
      hint: 'No markup: shown in search results',
      validators: {
        format: { custom_pattern: '^[^<>]*$', description: 'No angle brackets' },
        length: { eq: 160 },
      },
      appearance: { addons: [], editor: 'textarea', parameters: { placeholder: 'One paragraph' } },
    },
    changelog: {
      appearance: { addons: [], editor: 'markdown', parameters: { toolbar: [] } },
    },
  });
  assert.equal(fields.notes.appearance.editor, 'wysiwyg');
  for (const field of Object.values(fields)) assert.equal(field.field_type, 'text');
}
