import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { useTestServer } from '../support/server.ts';

// Leak test: everything environment-scoped changed in a sandbox stays in the sandbox,
// and the other way round; a fork keeps every id.

const server = useTestServer();

/** Everything environment-scoped the client can list, as comparable JSON. */
async function snapshot(client: Client) {
  const itemTypes = await client.itemTypes.list();
  const fields = [];
  const fieldsets = [];
  for (const itemType of itemTypes) {
    fields.push(...(await client.fields.list(itemType.id)));
    fieldsets.push(...(await client.fieldsets.list(itemType.id)));
  }
  const site = await client.site.find();
  return JSON.parse(
    JSON.stringify({
      itemTypes,
      fields,
      fieldsets,
      menuItems: await client.menuItems.list(),
      schemaMenuItems: await client.schemaMenuItems.list(),
      workflows: await client.workflows.list(),
      site: { locales: site.locales, timezone: site.timezone, theme: site.theme },
    }),
  );
}

async function populate(client: Client, prefix: string) {
  const workflow = await client.workflows.create({
    name: `${prefix} flow`,
    api_key: `${prefix}_flow`,
    stages: [{ id: 'draft', name: 'Draft', initial: true }],
  });
  const model = await client.itemTypes.create({
    name: `${prefix} post`,
    api_key: `${prefix}_post`,
  });
  const fieldset = await client.fieldsets.create(model.id, { title: `${prefix} group` });
  const field = await client.fields.create(model.id, {
    label: 'Title',
    api_key: 'title',
    field_type: 'string',
    fieldset: { type: 'fieldset', id: fieldset.id },
  });
  await client.itemTypes.update(model.id, { title_field: { type: 'field', id: field.id } });
  const menuItem = await client.menuItems.create({ label: `${prefix} menu`, position: 1 });
  return { workflow, model, fieldset, field, menuItem };
}

describe('sandbox environments are isolated', () => {
  test('a fork copies everything with its ids; changes on either side stay there', async () => {
    const main = server.client();
    const seeded = await populate(main, 'base');
    await main.site.update({ locales: ['en', 'it'] });
    const before = await snapshot(main);

    const forked = await main.environments.fork('main', { id: 'sandbox' });
    assert.equal(forked.id, 'sandbox');
    assert.equal(forked.meta.status, 'ready');
    assert.equal(forked.meta.primary, false);
    assert.equal(forked.meta.forked_from, 'main');
    const sandbox = server.client({ environment: 'sandbox' });
    assert.deepEqual(await snapshot(sandbox), before, 'the fork is an exact copy, ids included');

    // Sandbox writes: create, update, delete of every environment-scoped resource.
    await populate(sandbox, 'sbx');
    await sandbox.fields.update(seeded.field.id, { label: 'Sandbox title' });
    await sandbox.fieldsets.update(seeded.fieldset.id, { title: 'Sandbox group' });
    await sandbox.itemTypes.update(seeded.model.id, { hint: 'sandbox only' });
    await sandbox.menuItems.update(seeded.menuItem.id, { label: 'Sandbox menu' });
    await sandbox.workflows.update(seeded.workflow.id, { name: 'Sandbox flow' });
    await sandbox.site.update({ locales: ['en', 'fr'], timezone: 'Europe/Rome' });
    const schemaMenu = await sandbox.schemaMenuItems.list();
    assert.ok(schemaMenu[0]);
    await sandbox.schemaMenuItems.update(schemaMenu[0].id, { position: 5 });
    const sandboxModel = await sandbox.itemTypes.find('sbx_post');
    await sandbox.itemTypes.destroy(seeded.model.id);
    assert.deepEqual(await snapshot(main), before, 'main is unchanged by sandbox writes');

    // The same ids are free to reuse in main, and main's writes leave the sandbox alone.
    const sandboxBefore = await snapshot(sandbox);
    await main.itemTypes.create({ id: sandboxModel.id, name: 'Main only', api_key: 'main_only' });
    await main.fields.destroy(seeded.field.id);
    await main.site.update({ locales: ['en'] });
    assert.deepEqual(await snapshot(sandbox), sandboxBefore, 'the sandbox is unchanged');
    assert.equal((await sandbox.site.find()).timezone, 'Europe/Rome');
  });

  test('project-wide settings are shared: the site name is the same everywhere', async () => {
    const sandbox = server.client({ environment: 'sandbox' });
    await sandbox.site.update({ name: 'Renamed project' });
    assert.equal((await server.client().site.find()).name, 'Renamed project');
  });
});
