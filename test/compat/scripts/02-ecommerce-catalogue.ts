// An e-commerce catalogue as generated scripts create it (older projects: numeric ids
// mapped through `newItemTypes` / `newFields`): numbers with ranges, enums behind a
// select, colours with presets, a store location, and an options list stored as JSON.
import assert from 'node:assert/strict';
import type { Client, SimpleSchemaTypes } from '@datocms/cma-client-node';
import { assertAttributes, assertFields, findModel } from '../../support/migration-schema.ts';

const SIZES = [
  { hint: '', label: 'Small', value: 's' },
  { hint: '', label: 'Medium', value: 'm' },
  { hint: 'Sold out often', label: 'Large', value: 'l' },
];

export default async function (client: Client) {
  const newFields: Record<string, SimpleSchemaTypes.Field> = {};
  const newItemTypes: Record<string, SimpleSchemaTypes.ItemType> = {};

  // Create new models/block models

  // Create model "Product" (`product`)
  newItemTypes['1058312'] = await client.itemTypes.create(
    {
      name: 'Product',
      api_key: 'product',
      all_locales_required: true,
      collection_appearance: 'table',
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Create model "Store" (`store`)
  newItemTypes['1058313'] = await client.itemTypes.create(
    { name: 'Store', api_key: 'store', sortable: true, inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );

  // Creating new fields/fieldsets

  // Create Single-line string field "Name" (`name`) in model "Product" (`product`)
  newFields['5187710'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'Name',
    field_type: 'string',
    api_key: 'name',
    validators: { required: {}, length: { min: 2, max: 80 } },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
    default_value: '',
  });

  // Create Single-line string field "SKU" (`sku`) in model "Product" (`product`)
  newFields['5187711'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'SKU',
    field_type: 'string',
    api_key: 'sku',
    hint: 'Stock keeping unit, e.g. AB-1234',
    validators: {
      required: {},
      unique: {},
      format: {
        custom_pattern: '^[A-Z]{2}-\\d{4}$',
        description: 'Two letters, dash, four digits',
      },
    },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: false } },
    default_value: '',
  });

  // Create Floating-point number field "Price" (`price`) in model "Product" (`product`)
  newFields['5187712'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'Price',
    field_type: 'float',
    api_key: 'price',
    validators: { required: {}, number_range: { min: 0 } },
    appearance: { addons: [], editor: 'float', parameters: { placeholder: null } },
    default_value: null,
  });

  // Create Integer number field "Stock" (`stock`) in model "Product" (`product`)
  newFields['5187713'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'Stock',
    field_type: 'integer',
    api_key: 'stock',
    validators: { number_range: { min: 0, max: 100000 } },
    appearance: { addons: [], editor: 'integer', parameters: { placeholder: null } },
    default_value: 0,
  });

  // Create Single-line string field "Size" (`size`) in model "Product" (`product`)
  newFields['5187714'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'Size',
    field_type: 'string',
    api_key: 'size',
    validators: { enum: { values: ['s', 'm', 'l'] } },
    appearance: { addons: [], editor: 'string_select', parameters: { options: SIZES } },
    default_value: '',
  });

  // Create Color field "Colour" (`colour`) in model "Product" (`product`)
  newFields['5187715'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'Colour',
    field_type: 'color',
    api_key: 'colour',
    appearance: {
      addons: [],
      editor: 'color_picker',
      parameters: { enable_alpha: false, preset_colors: ['#E0F61D', '#4A7DC7', '#020817'] },
    },
    default_value: { red: 74, green: 125, blue: 199, alpha: 255 },
  });

  // Create JSON field "Tags" (`tags`) in model "Product" (`product`)
  newFields['5187716'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'Tags',
    field_type: 'json',
    api_key: 'tags',
    appearance: {
      addons: [],
      editor: 'string_multi_select',
      parameters: {
        options: [
          { hint: '', label: 'New', value: 'new' },
          { hint: '', label: 'On sale', value: 'sale' },
        ],
      },
    },
    default_value: '[]',
  });

  // Create Boolean field "Available" (`available`) in model "Product" (`product`)
  newFields['5187717'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'Available',
    field_type: 'boolean',
    api_key: 'available',
    appearance: { addons: [], editor: 'boolean', parameters: {} },
    default_value: true,
  });

  // Create Multiple links field "Stores" (`stores`) in model "Product" (`product`)
  newFields['5187718'] = await client.fields.create(newItemTypes['1058312'], {
    label: 'Stores',
    field_type: 'links',
    api_key: 'stores',
    validators: {
      items_item_type: {
        on_publish_with_unpublished_references_strategy: 'fail',
        on_reference_unpublish_strategy: 'delete_references',
        on_reference_delete_strategy: 'delete_references',
        item_types: [newItemTypes['1058313'].id],
      },
      size: { min: 1 },
    },
    appearance: { addons: [], editor: 'links_select', parameters: {} },
  });

  // Create Single-line string field "City" (`city`) in model "Store" (`store`)
  newFields['5187720'] = await client.fields.create(newItemTypes['1058313'], {
    label: 'City',
    field_type: 'string',
    api_key: 'city',
    validators: { required: {} },
    appearance: { addons: [], editor: 'single_line', parameters: { heading: true } },
    default_value: '',
  });

  // Create Geolocation field "Location" (`location`) in model "Store" (`store`)
  newFields['5187721'] = await client.fields.create(newItemTypes['1058313'], {
    label: 'Location',
    field_type: 'lat_lon',
    api_key: 'location',
    validators: { required: {} },
    appearance: { addons: [], editor: 'map', parameters: {} },
    default_value: { latitude: 45.4642, longitude: 9.19 },
  });

  // Finalize models/block models

  // Update model "Product" (`product`)
  await client.itemTypes.update(newItemTypes['1058312'], {
    title_field: newFields['5187710'],
    ordering_direction: 'asc',
    ordering_field: newFields['5187712'],
  });

  // Update model "Store" (`store`)
  await client.itemTypes.update(newItemTypes['1058313'], { title_field: newFields['5187720'] });
}

export async function expect(client: Client) {
  const product = await findModel(client, 'product');
  const fields = await assertFields(client, 'product', {
    name: { field_type: 'string', validators: { required: {}, length: { min: 2, max: 80 } } },
    sku: {
      validators: {
        required: {},
        unique: {},
        format: {
          custom_pattern: '^[A-Z]{2}-\\d{4}$',
          description: 'Two letters, dash, four digits',
        },
      },
      hint: 'Stock keeping unit, e.g. AB-1234',
    },
    price: { field_type: 'float', validators: { required: {}, number_range: { min: 0 } } },
    stock: {
      field_type: 'integer',
      validators: { number_range: { min: 0, max: 100000 } },
      default_value: 0,
    },
    size: {
      validators: { enum: { values: ['s', 'm', 'l'] } },
      appearance: { addons: [], editor: 'string_select', parameters: { options: SIZES } },
    },
    colour: {
      field_type: 'color',
      default_value: { red: 74, green: 125, blue: 199, alpha: 255 },
      appearance: {
        addons: [],
        editor: 'color_picker',
        parameters: { enable_alpha: false, preset_colors: ['#E0F61D', '#4A7DC7', '#020817'] },
      },
    },
    tags: { field_type: 'json', default_value: '[]' },
    available: { field_type: 'boolean', default_value: true },
    stores: {
      field_type: 'links',
      validators: { ...linksTo((await findModel(client, 'store')).id), size: { min: 1 } },
    },
  });
  assertAttributes(
    product,
    {
      all_locales_required: true,
      collection_appearance: 'table',
      ordering_direction: 'asc',
      ordering_field: { type: 'field', id: fields.price?.id },
      title_field: { type: 'field', id: fields.name?.id },
    },
    'product',
  );
  const store = await findModel(client, 'store');
  assert.equal(store.sortable, true);
  await assertFields(client, 'store', {
    city: { field_type: 'string' },
    location: {
      field_type: 'lat_lon',
      validators: { required: {} },
      default_value: { latitude: 45.4642, longitude: 9.19 },
    },
  });
}

function linksTo(modelId: string) {
  return {
    items_item_type: {
      on_publish_with_unpublished_references_strategy: 'fail',
      on_reference_unpublish_strategy: 'delete_references',
      on_reference_delete_strategy: 'delete_references',
      item_types: [modelId],
    },
  };
}
