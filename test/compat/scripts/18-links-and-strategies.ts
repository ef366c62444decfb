// Links between models with each editor and every publishing strategy the API returns,
// a required unique link, and multiple links bounded by `size`.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertFields } from '../../support/migration-schema.ts';

const COURSE = 'E4zunElbSW-ok4gLENViSw';
const TEACHER = 'fUkYE9U7RGmyrE6Au9inTw';
const ROOM = 'T1zeGPdrTiylun_E5cuJvg';

function strategies(
  publish: 'fail' | 'publish_references',
  unpublish: 'fail' | 'unpublish' | 'delete_references',
  remove: 'fail' | 'delete_references',
  itemTypes: string[],
) {
  return {
    on_publish_with_unpublished_references_strategy: publish,
    on_reference_unpublish_strategy: unpublish,
    on_reference_delete_strategy: remove,
    item_types: itemTypes,
  };
}

export default async function (client: Client) {
  for (const [id, name, apiKey] of [
    [COURSE, 'Course', 'course'],
    [TEACHER, 'Teacher', 'teacher'],
    [ROOM, 'Room', 'room'],
  ] as const) {
    await client.itemTypes.create(
      { id, name, api_key: apiKey, inverse_relationships_enabled: false },
      { skip_menu_item_creation: true },
    );
  }

  await client.fields.create(COURSE, {
    id: 'BFkInjyDQR-LgkgjBwzj_w',
    label: 'Lead teacher',
    field_type: 'link',
    api_key: 'lead_teacher',
    validators: {
      item_item_type: strategies('publish_references', 'unpublish', 'fail', [TEACHER]),
      required: {},
    },
    appearance: { addons: [], editor: 'link_select', parameters: {} },
  });
  await client.fields.create(COURSE, {
    id: 'cTuc0wvuTiGPa40xc8Hmew',
    label: 'Room',
    field_type: 'link',
    api_key: 'room',
    validators: {
      item_item_type: strategies('fail', 'fail', 'delete_references', [ROOM]),
      unique: {},
    },
    appearance: { addons: [], editor: 'link_embed', parameters: {} },
  });
  await client.fields.create(COURSE, {
    id: 'czyP5i5XRDGiZTG4SD4rjg',
    label: 'Assistants',
    field_type: 'links',
    api_key: 'assistants',
    validators: {
      items_item_type: strategies('fail', 'delete_references', 'delete_references', [TEACHER]),
      size: { max: 3 },
    },
    appearance: { addons: [], editor: 'links_embed', parameters: {} },
  });
  await client.fields.create(COURSE, {
    id: 'XSKm3-DYQ7uVQVvgyulZ0g',
    label: 'Prerequisites',
    field_type: 'links',
    api_key: 'prerequisites',
    validators: {
      items_item_type: strategies('publish_references', 'unpublish', 'fail', [COURSE]),
      size: { eq: 2 },
    },
    appearance: { addons: [], editor: 'links_select', parameters: {} },
  });
  await client.fields.create(COURSE, {
    id: 'HUeX00wnThCITlShASsigQ',
    label: 'Related places',
    field_type: 'links',
    api_key: 'related_places',
    validators: {
      items_item_type: strategies('fail', 'delete_references', 'delete_references', [ROOM, COURSE]),
    },
    appearance: { addons: [], editor: 'links_select', parameters: {} },
  });
}

export async function expect(client: Client) {
  await assertFields(client, 'course', {
    lead_teacher: {
      validators: {
        item_item_type: strategies('publish_references', 'unpublish', 'fail', [TEACHER]),
        required: {},
      },
      appearance: { addons: [], editor: 'link_select', parameters: {} },
    },
    room: {
      validators: {
        item_item_type: strategies('fail', 'fail', 'delete_references', [ROOM]),
        unique: {},
      },
      appearance: { addons: [], editor: 'link_embed', parameters: {} },
    },
    assistants: {
      validators: {
        items_item_type: strategies('fail', 'delete_references', 'delete_references', [TEACHER]),
        size: { max: 3 },
      },
      appearance: { addons: [], editor: 'links_embed', parameters: {} },
    },
    prerequisites: {
      validators: {
        items_item_type: strategies('publish_references', 'unpublish', 'fail', [COURSE]),
        size: { eq: 2 },
      },
    },
    related_places: {
      validators: {
        items_item_type: strategies('fail', 'delete_references', 'delete_references', [
          ROOM,
          COURSE,
        ]),
      },
    },
  });
  const referencingRoom = await client.itemTypes.referencing(ROOM);
  assert.deepEqual(
    referencingRoom.map((model) => model.api_key),
    ['course'],
  );
}
