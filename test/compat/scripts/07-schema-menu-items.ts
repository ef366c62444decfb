// The schema sidebar: models are created with `schema_menu_item_id` (the id their schema
// menu item had in the source environment), folders are created for models and for
// blocks, and the generated "Update … schema menu item" steps move entries into them.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';

const PRODUCT = 'JBdWWFWoTC66fjvTLWyGCQ';
const CATEGORY = 'RJJiPsnbRN2iBwaMbxMKFw';
const BANNER = 'S2nBP3eNRaub_FKiA3r1zA';
const PRODUCT_ENTRY = 'SSNNAJf4S3CLdUr1kEoJYQ';
const CATEGORY_ENTRY = 'Cn9VisaKTHC3tTS8k5coFg';
const BANNER_ENTRY = 'BLST8CeaQOaQA27hMZ5fZw';
const CATALOG_FOLDER = 'OaDk5s7iR4uYeXJcTgLQfQ';
const BLOCKS_FOLDER = 'RhipMxlnQwSQWeAwa5qrvg';

export default async function (client: Client) {
  // Create model "Product" (`product`)
  await client.itemTypes.create(
    { id: PRODUCT, name: 'Product', api_key: 'product', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true, schema_menu_item_id: PRODUCT_ENTRY },
  );
  // Create model "Category" (`category`)
  await client.itemTypes.create(
    { id: CATEGORY, name: 'Category', api_key: 'category', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true, schema_menu_item_id: CATEGORY_ENTRY },
  );
  // Create block model "Banner" (`banner`)
  await client.itemTypes.create(
    {
      id: BANNER,
      name: 'Banner',
      api_key: 'banner',
      modular_block: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true, schema_menu_item_id: BANNER_ENTRY },
  );

  // Manage schema menu items

  // Create model schema menu item "Catalog"
  await client.schemaMenuItems.create({
    id: CATALOG_FOLDER,
    label: 'Catalog',
    kind: 'item_type',
  });
  // Create block schema menu item "Page blocks"
  await client.schemaMenuItems.create({
    id: BLOCKS_FOLDER,
    label: 'Page blocks',
    kind: 'modular_block',
  });
  // Update model schema menu item for model "Product" (`product`)
  await client.schemaMenuItems.update(PRODUCT_ENTRY, {
    position: 1,
    parent: { id: CATALOG_FOLDER, type: 'schema_menu_item' },
  });
  // Update model schema menu item for model "Category" (`category`)
  await client.schemaMenuItems.update(CATEGORY_ENTRY, {
    position: 0,
    parent: { id: CATALOG_FOLDER, type: 'schema_menu_item' },
  });
  // Update block schema menu item for block model "Banner" (`banner`)
  await client.schemaMenuItems.update(BANNER_ENTRY, {
    position: 0,
    parent: { id: BLOCKS_FOLDER, type: 'schema_menu_item' },
  });
  // Swap the two models inside the folder in one call.
  await client.schemaMenuItems.reorder([
    {
      id: PRODUCT_ENTRY,
      type: 'schema_menu_item',
      position: 0,
      parent: { id: CATALOG_FOLDER, type: 'schema_menu_item' },
    },
    {
      id: CATEGORY_ENTRY,
      type: 'schema_menu_item',
      position: 1,
      parent: { id: CATALOG_FOLDER, type: 'schema_menu_item' },
    },
  ]);
}

export async function expect(client: Client) {
  const entries = await client.schemaMenuItems.list();
  const byId = Object.fromEntries(entries.map((entry) => [entry.id, entry]));
  const product = byId[PRODUCT_ENTRY];
  const category = byId[CATEGORY_ENTRY];
  const banner = byId[BANNER_ENTRY];
  assert.ok(product && category && banner, 'the models kept their schema menu item ids');
  assert.deepEqual(product.item_type, { type: 'item_type', id: PRODUCT });
  assert.equal(product.kind, 'item_type');
  assert.deepEqual(banner.item_type, { type: 'item_type', id: BANNER });
  assert.equal(banner.kind, 'modular_block');
  assert.deepEqual(product.parent, { type: 'schema_menu_item', id: CATALOG_FOLDER });
  assert.deepEqual(banner.parent, { type: 'schema_menu_item', id: BLOCKS_FOLDER });
  assert.ok(product.position < category.position, 'product comes first after the reorder');
  const folder = byId[CATALOG_FOLDER];
  assert.equal(folder?.label, 'Catalog');
  assert.equal(folder?.item_type, null);
  assert.deepEqual(
    folder?.children.map((child) => child.id).sort(),
    [PRODUCT_ENTRY, CATEGORY_ENTRY].sort(),
  );
  assert.equal(byId[BLOCKS_FOLDER]?.kind, 'modular_block');
  // skip_menu_item_creation: no content menu items were made.
  assert.deepEqual(await client.menuItems.list(), []);
}
