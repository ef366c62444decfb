// Finalizing models: the generated "Update model" step sets every presentation
// relationship at once, a link field included where DatoCMS allows it, plus the
// ordering of the collection.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertAttributes, findModel, ref } from '../../support/migration-schema.ts';

const TEAM = 'VoStN-KCQzihufYPrwaQsw';
const MEMBER = 'Zqbi9I0RRSyskTR-WYyP0g';
const TEAM_NAME = 'Px6Ztn4oSnuj_G19nwX4UA';
const MEMBER_NAME = 'HNcD7IkgTUuOCFupvyL-bA';
const MEMBER_PHOTO = 'eOSzAkEaTd6zUs66hP09Cw';
const MEMBER_BIO = 'Odxi0BKfTh2vQkul7wZ9fw';
const MEMBER_TEAM = 'baW2z61dQLmjt3ZcMnWUHg';
const MEMBER_JOINED = 'DanVgZERTIuwhFHBJxF3Qw';

export default async function (client: Client) {
  await client.itemTypes.create(
    { id: TEAM, name: 'Team', api_key: 'team', inverse_relationships_enabled: true },
    { skip_menu_item_creation: true },
  );
  await client.itemTypes.create(
    {
      id: MEMBER,
      name: 'Team member',
      api_key: 'team_member',
      collection_appearance: 'table',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  await client.fields.create(TEAM, {
    id: TEAM_NAME,
    label: 'Name',
    field_type: 'string',
    api_key: 'name',
    validators: { required: {}, unique: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
  });
  await client.fields.create(MEMBER, {
    id: MEMBER_NAME,
    label: 'Full name',
    field_type: 'string',
    api_key: 'full_name',
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
  });
  await client.fields.create(MEMBER, {
    id: MEMBER_PHOTO,
    label: 'Photo',
    field_type: 'file',
    api_key: 'photo',
    validators: { required: {} },
    appearance: { addons: [], editor: 'file', parameters: {} },
  });
  await client.fields.create(MEMBER, {
    id: MEMBER_BIO,
    label: 'Bio',
    field_type: 'text',
    api_key: 'bio',
    appearance: { addons: [], editor: 'textarea', parameters: { placeholder: 'A few lines' } },
  });
  await client.fields.create(MEMBER, {
    id: MEMBER_TEAM,
    label: 'Team',
    field_type: 'link',
    api_key: 'team',
    validators: {
      item_item_type: {
        on_publish_with_unpublished_references_strategy: 'fail',
        on_reference_unpublish_strategy: 'delete_references',
        on_reference_delete_strategy: 'delete_references',
        item_types: [TEAM],
      },
    },
    appearance: { addons: [], editor: 'link_embed', parameters: {} },
  });
  await client.fields.create(MEMBER, {
    id: MEMBER_JOINED,
    label: 'Joined on',
    field_type: 'date',
    api_key: 'joined_on',
    validators: { date_range: { max: '2100-01-01' } },
    appearance: { addons: [], editor: 'date_picker', parameters: {} },
  });

  // Finalize models/block models

  // Update model "Team" (`team`)
  await client.itemTypes.update(TEAM, {
    title_field: { id: TEAM_NAME, type: 'field' },
    presentation_title_field: { id: TEAM_NAME, type: 'field' },
  });
  // Update model "Team member" (`team_member`)
  await client.itemTypes.update(MEMBER, {
    ordering_direction: 'desc',
    ordering_meta: null,
    title_field: { id: MEMBER_NAME, type: 'field' },
    image_preview_field: { id: MEMBER_PHOTO, type: 'field' },
    excerpt_field: { id: MEMBER_BIO, type: 'field' },
    ordering_field: { id: MEMBER_JOINED, type: 'field' },
    presentation_title_field: { id: MEMBER_TEAM, type: 'field' },
    presentation_image_field: { id: MEMBER_PHOTO, type: 'field' },
  });
}

export async function expect(client: Client) {
  assertAttributes(
    await findModel(client, 'team'),
    {
      inverse_relationships_enabled: true,
      title_field: ref('field', TEAM_NAME),
      presentation_title_field: ref('field', TEAM_NAME),
      image_preview_field: null,
    },
    'team',
  );
  assertAttributes(
    await findModel(client, 'team_member'),
    {
      collection_appearance: 'table',
      ordering_direction: 'desc',
      ordering_meta: null,
      title_field: ref('field', MEMBER_NAME),
      image_preview_field: ref('field', MEMBER_PHOTO),
      excerpt_field: ref('field', MEMBER_BIO),
      ordering_field: ref('field', MEMBER_JOINED),
      presentation_title_field: ref('field', MEMBER_TEAM),
      presentation_image_field: ref('field', MEMBER_PHOTO),
    },
    'team_member',
  );
  const team = await client.fields.find('team_member::team');
  assert.deepEqual(team.appearance, { addons: [], editor: 'link_embed', parameters: {} });
}
