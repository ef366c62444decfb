// Brings a test server's project back to the state it had when it was created, through
// the official client, so the compatibility corpus can run one migration script after
// another on one server (starting an embedded server per script takes too long on a
// loaded machine) while each script still starts from a fresh project.
import assert from 'node:assert/strict';
import type { Client } from '@datocms/cma-client-node';

/** What a fresh project holds: compared after every reset. */
export type ProjectSnapshot = Awaited<ReturnType<typeof snapshotProject>>;

/** Site settings a migration script may change, and their values in a fresh project. */
const SITE_SETTINGS = [
  'name',
  'locales',
  'timezone',
  'theme',
  'no_index',
  'global_seo',
  'require_2fa',
  'ip_tracking_enabled',
  'force_use_of_sandbox_environments',
] as const;

export async function snapshotProject(client: Client) {
  const [site, itemTypes, menuItems, schemaMenuItems, webhooks, workflows, roles, tokens] =
    await Promise.all([
      client.site.find(),
      client.itemTypes.list(),
      client.menuItems.list(),
      client.schemaMenuItems.list(),
      client.webhooks.list(),
      client.workflows.list(),
      client.roles.list(),
      client.accessTokens.list(),
    ]);
  return {
    site: Object.fromEntries(SITE_SETTINGS.map((key) => [key, site[key]])),
    itemTypes: itemTypes.map((itemType) => itemType.id).sort(),
    menuItems: menuItems.map((item) => item.id).sort(),
    schemaMenuItems: schemaMenuItems.map((item) => item.id).sort(),
    webhooks: webhooks.map((webhook) => webhook.id).sort(),
    workflows: workflows.map((workflow) => workflow.id).sort(),
    roles: roles.sort((a, b) => a.id.localeCompare(b.id)),
    tokens: tokens.map((token) => token.id).sort(),
  };
}

/** Children before their parents, so no destroy hits a non-empty folder. */
function deepestFirst<T extends { id: string; parent: { id: string } | null }>(items: T[]): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const depth = (item: T): number => {
    const parent = item.parent ? byId.get(item.parent.id) : undefined;
    return parent ? depth(parent) + 1 : 0;
  };
  return [...items].sort((a, b) => depth(b) - depth(a));
}

export async function resetProject(client: Client, fresh: ProjectSnapshot): Promise<void> {
  for (const webhook of await client.webhooks.list()) await client.webhooks.destroy(webhook.id);
  for (const token of await client.accessTokens.list())
    if (!fresh.tokens.includes(token.id)) await client.accessTokens.destroy(token.id);
  for (const item of deepestFirst(await client.menuItems.list()))
    await client.menuItems.destroy(item.id);

  // Fields that point at other models go first, so every model can then be destroyed.
  const itemTypes = await client.itemTypes.list();
  for (const itemType of itemTypes) {
    for (const field of await client.fields.list(itemType.id)) {
      const pointsElsewhere = Object.values(field.validators).some(
        (validator) =>
          typeof validator === 'object' && validator !== null && 'item_types' in validator,
      );
      if (pointsElsewhere) await client.fields.destroy(field.id);
    }
  }
  for (const itemType of itemTypes) await client.itemTypes.destroy(itemType.id);

  for (const item of deepestFirst(await client.schemaMenuItems.list()))
    await client.schemaMenuItems.destroy(item.id);
  for (const workflow of await client.workflows.list()) await client.workflows.destroy(workflow.id);
  const freshRoles = fresh.roles.map((role) => role.id);
  for (const role of await client.roles.list())
    if (!freshRoles.includes(role.id)) await client.roles.destroy(role.id);
  const site = await client.site.find();
  const changed = Object.entries(fresh.site).filter(
    ([key, value]) => JSON.stringify(site[key as keyof typeof site]) !== JSON.stringify(value),
  );
  if (changed.length > 0)
    await client.site.update(
      Object.fromEntries(changed) as Parameters<Client['site']['update']>[0],
    );

  assert.deepEqual(await snapshotProject(client), fresh, 'the project is back to its fresh state');
}
