// Collection settings and copies: a tree-shaped model, a manually sortable one, a model
// ordered by a meta date, then a model and a field duplicated as projects do to start a
// variant.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';
import { assertAttributes, findModel } from '../../support/migration-schema.ts';

const CATEGORY = 'X9YQDerJTRmb8lVgxXGOKg';
const SLIDE = 'XfWJtRGlSQGXNfZJ7L0jZg';
const NEWS = 'EcV0cqILS_yi8xdYhRAz8w';

export default async function (client: Client) {
  await client.itemTypes.create(
    {
      id: CATEGORY,
      name: 'Category',
      api_key: 'category',
      tree: true,
      collection_appearance: 'compact',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  await client.itemTypes.create(
    {
      id: SLIDE,
      name: 'Slide',
      api_key: 'slide',
      sortable: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  await client.itemTypes.create(
    {
      id: NEWS,
      name: 'News item',
      api_key: 'news_item',
      ordering_meta: 'first_published_at',
      ordering_direction: 'desc',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );
  await client.fields.create(SLIDE, {
    id: 'XSdBz3TZRSOuYi0IKov37A',
    label: 'Caption',
    field_type: 'string',
    api_key: 'caption',
    validators: { length: { max: 80 } },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
  });

  await client.itemTypes.duplicate(SLIDE);
  await client.fields.duplicate('XSdBz3TZRSOuYi0IKov37A');
}

export async function expect(client: Client) {
  assertAttributes(
    await findModel(client, 'category'),
    { tree: true, sortable: false, collection_appearance: 'compact' },
    'category',
  );
  assertAttributes(await findModel(client, 'slide'), { sortable: true, tree: false }, 'slide');
  assertAttributes(
    await findModel(client, 'news_item'),
    { ordering_meta: 'first_published_at', ordering_direction: 'desc', ordering_field: null },
    'news_item',
  );
  const models = await client.itemTypes.list();
  assert.equal(models.length, 4, 'the slide model was copied');
  const copy = models.find((model) => ![CATEGORY, SLIDE, NEWS].includes(model.id));
  assert.ok(copy);
  assert.equal(copy.sortable, true);
  const copiedFields = await client.fields.list(copy.id);
  assert.deepEqual(
    copiedFields.map((field) => field.field_type),
    ['string'],
  );
  const slideFields = await client.fields.list(SLIDE);
  assert.equal(slideFields.length, 2, 'the caption field was copied');
  for (const field of slideFields) assert.deepEqual(field.validators, { length: { max: 80 } });
}
