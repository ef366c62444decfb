// Single-line strings with each editor and validator as the API returns them: radio
// groups and selects with blank option hints, email/url/custom formats, enums, lengths,
// and blank defaults beside format and enum validators.
import type { Client, SimpleSchemaTypes } from '@datocms/cma-client-node';
import { assertFields } from '../../support/migration-schema.ts';

const PRIORITIES = [
  { hint: '', label: 'Low', value: 'low' },
  { hint: '', label: 'Normal', value: 'normal' },
  { hint: 'Pages the on-call person', label: 'Urgent', value: 'urgent' },
];

export default async function (client: Client) {
  const newItemTypes: Record<string, SimpleSchemaTypes.ItemType> = {};

  // Create model "Support ticket" (`support_ticket`)
  newItemTypes['2040351'] = await client.itemTypes.create(
    {
      name: 'Support ticket',
      api_key: 'support_ticket',
      collection_appearance: 'table',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  const ticket = newItemTypes['2040351'];

  // Create Single-line string field "Subject" (`subject`) in model "Support ticket" (`support_ticket`)
  await client.fields.create(ticket, {
    label: 'Subject',
    field_type: 'string',
    api_key: 'subject',
    validators: { required: {}, length: { min: 5, max: 150 } },
    appearance: {
      addons: [],
      editor: 'single_line',
      parameters: { heading: true, placeholder: 'What went wrong?' },
    },
    default_value: '',
  });
  // Create Single-line string field "Reporter email" (`reporter_email`) in model "Support ticket" (`support_ticket`)
  await client.fields.create(ticket, {
    label: 'Reporter email',
    field_type: 'string',
    api_key: 'reporter_email',
    validators: { required: {}, format: { predefined_pattern: 'email' } },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    default_value: '',
  });
  // Create Single-line string field "Page URL" (`page_url`) in model "Support ticket" (`support_ticket`)
  await client.fields.create(ticket, {
    label: 'Page URL',
    field_type: 'string',
    api_key: 'page_url',
    validators: { format: { predefined_pattern: 'url' } },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    default_value: '',
  });
  // Create Single-line string field "Ticket number" (`ticket_number`) in model "Support ticket" (`support_ticket`)
  await client.fields.create(ticket, {
    label: 'Ticket number',
    field_type: 'string',
    api_key: 'ticket_number',
    validators: {
      unique: {},
      length: { eq: 8 },
      format: { custom_pattern: '^T-\\d{6}$', description: 'T- followed by six digits' },
    },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    default_value: '',
  });
  // Create Single-line string field "Priority" (`priority`) in model "Support ticket" (`support_ticket`)
  await client.fields.create(ticket, {
    label: 'Priority',
    field_type: 'string',
    api_key: 'priority',
    validators: { required: {}, enum: { values: ['low', 'normal', 'urgent'] } },
    appearance: { addons: [], editor: 'string_radio_group', parameters: { radios: PRIORITIES } },
    default_value: 'normal',
  });
  // Create Single-line string field "Channel" (`channel`) in model "Support ticket" (`support_ticket`)
  await client.fields.create(ticket, {
    label: 'Channel',
    field_type: 'string',
    api_key: 'channel',
    validators: { enum: { values: ['email', 'phone', 'chat'] } },
    appearance: {
      addons: [],
      editor: 'string_select',
      parameters: {
        options: [
          { hint: '', label: 'E-mail', value: 'email' },
          { hint: '', label: 'Phone', value: 'phone' },
          { hint: '', label: 'Chat', value: 'chat' },
        ],
      },
    },
    default_value: '',
  });
}

export async function expect(client: Client) {
  await assertFields(client, 'support_ticket', {
    subject: {
      validators: { required: {}, length: { min: 5, max: 150 } },
      appearance: {
        addons: [],
        editor: 'single_line',
        parameters: { heading: true, placeholder: 'What went wrong?' },
      },
    },
    reporter_email: { validators: { required: {}, format: { predefined_pattern: 'email' } } },
    page_url: { validators: { format: { predefined_pattern: 'url' } } },
    ticket_number: {
      validators: {
        unique: {},
        length: { eq: 8 },
        format: { custom_pattern: '^T-\\d{6}$', description: 'T- followed by six digits' },
      },
    },
    priority: {
      validators: { required: {}, enum: { values: ['low', 'normal', 'urgent'] } },
      appearance: { addons: [], editor: 'string_radio_group', parameters: { radios: PRIORITIES } },
      default_value: 'normal',
    },
    channel: { validators: { enum: { values: ['email', 'phone', 'chat'] } } },
  });
}
