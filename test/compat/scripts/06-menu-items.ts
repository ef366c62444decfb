// The content navigation: generated scripts create menu items without `position` (the
// server appends), then place them with `update({ position })` from 0; hand-written ones
// create with `position: 0` and reorder a whole level at once.
import assert from 'node:assert/strict';
import type { Client, SimpleSchemaTypes } from '@datocms/cma-client-node';

export default async function (client: Client) {
  const newItemTypes: Record<string, SimpleSchemaTypes.ItemType> = {};
  const newMenuItems: Record<string, SimpleSchemaTypes.MenuItem> = {};

  // Create model "Article" (`article`)
  newItemTypes['772881'] = await client.itemTypes.create(
    { name: 'Article', api_key: 'article', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  // Create model "Event" (`event`)
  newItemTypes['772886'] = await client.itemTypes.create(
    { name: 'Event', api_key: 'event', inverse_relationships_enabled: false },
    { skip_menu_item_creation: true },
  );
  // Create model "Home page" (`home_page`)
  newItemTypes['772897'] = await client.itemTypes.create(
    {
      name: 'Home page',
      api_key: 'home_page',
      singleton: true,
      inverse_relationships_enabled: false,
    },
    { skip_menu_item_creation: true },
  );

  // Manage menu items

  // Create menu item "Content"
  newMenuItems['404631'] = await client.menuItems.create({ label: 'Content', position: 0 });
  // Create menu item "Home page"
  newMenuItems['404632'] = await client.menuItems.create({
    label: 'Home page',
    item_type: newItemTypes['772897'],
  });
  // Create menu item "Articles"
  newMenuItems['505168'] = await client.menuItems.create({
    label: 'Articles',
    item_type: newItemTypes['772881'],
    parent: { id: newMenuItems['404631'].id, type: 'menu_item' },
  });
  // Create menu item "Events"
  newMenuItems['505169'] = await client.menuItems.create({
    label: 'Events',
    item_type: newItemTypes['772886'],
    parent: newMenuItems['404631'],
  });
  // Create menu item "Documentation"
  newMenuItems['540085'] = await client.menuItems.create({
    label: 'Documentation',
    external_url: 'https://www.example.com/docs',
    open_in_new_tab: true,
  });

  // Update menu item "Home page"
  await client.menuItems.update(newMenuItems['404632'], { position: 0 });
  // Update menu item "Events"
  await client.menuItems.update(newMenuItems['505169'], { position: 0 });

  // Reorder the root level: documentation first, then home, then content.
  await client.menuItems.reorder([
    { id: newMenuItems['540085'].id, type: 'menu_item', position: 0, parent: null },
    { id: newMenuItems['404632'].id, type: 'menu_item', position: 1, parent: null },
    { id: newMenuItems['404631'].id, type: 'menu_item', position: 2, parent: null },
  ]);
}

export async function expect(client: Client) {
  const items = await client.menuItems.list();
  const byLabel = Object.fromEntries(items.map((item) => [item.label, item]));
  assert.deepEqual(Object.keys(byLabel).sort(), [
    'Articles',
    'Content',
    'Documentation',
    'Events',
    'Home page',
  ]);
  const content = byLabel.Content;
  assert.ok(content);
  const childrenOf = (parentId: string | null) =>
    items
      .filter((item) => (item.parent?.id ?? null) === parentId)
      .sort((a, b) => a.position - b.position)
      .map((item) => item.label);
  assert.deepEqual(childrenOf(null), ['Documentation', 'Home page', 'Content']);
  assert.deepEqual(childrenOf(content.id), ['Events', 'Articles']);
  const docs = byLabel.Documentation;
  assert.equal(docs?.external_url, 'https://www.example.com/docs');
  assert.equal(docs?.open_in_new_tab, true);
  assert.equal(docs?.item_type, null);
  const article = (await client.itemTypes.list()).find((model) => model.api_key === 'article');
  assert.deepEqual(byLabel.Articles?.item_type, { type: 'item_type', id: article?.id });
  assert.equal(byLabel.Articles?.open_in_new_tab, false);
}
