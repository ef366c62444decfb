import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rejectsWithApiError, rejectsWithMessage } from '../support/api-errors.ts';
import { itemPermission, tokenWithRole } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

// Environment routes name their environment in the path: the role's environments_access
// is judged on that environment (for a fork on its source and on the new sandbox, for a
// promote on the sandbox and on the primary it replaces), not only on X-Environment.

const server = useTestServer();
const admin = server.client();

/** A client whose role may manage and promote environments, limited to `access`. */
async function manager(access: 'primary_only' | 'sandbox_only' | 'all', environment?: string) {
  const { token } = await tokenWithRole(server.db, {
    environments_access: access,
    can_manage_environments: true,
    can_promote_environments: true,
  });
  return server.client({ apiToken: token, environment });
}

/** All an environment route may change: the environments, maintenance mode, role entries. */
async function projectState() {
  const environments = await admin.environments.list();
  const roles = await admin.roles.list();
  return {
    environments: environments.map(({ id, meta }) => ({ id, ...meta })),
    maintenance: (await admin.maintenanceMode.find()).active,
    roles: roles.map((role) => [
      role.id,
      role.positive_item_type_permissions,
      role.negative_item_type_permissions,
      role.positive_upload_permissions,
      role.negative_upload_permissions,
    ]),
  };
}

/** The call is refused 403 naming the environment the role cannot enter, and changes nothing. */
async function refused(call: () => Promise<unknown>, environment: string): Promise<void> {
  const before = await projectState();
  await rejectsWithMessage(
    call(),
    'INSUFFICIENT_PERMISSIONS',
    new RegExp(`cannot access environment "${environment}"`),
  );
  assert.deepEqual(await projectState(), before, 'a refused call changes nothing');
}

describe('a sandbox_only role reaches sandboxes only, whatever the path names', () => {
  test('the primary, named or replaced, is refused', async () => {
    await admin.environments.fork('main', { id: 'sbx-one' });
    const client = await manager('sandbox_only', 'sbx-one');
    await refused(() => client.environments.fork('main', { id: 'from-main' }), 'main');
    await refused(() => client.environments.rename('main', { id: 'renamed' }), 'main');
    await refused(() => client.environments.promote('main'), 'main');
    await refused(() => client.environments.promote('sbx-one'), 'main');
    await refused(() => client.environments.destroy('main'), 'main');
    await refused(() => client.maintenanceMode.activate(), 'main');
    await admin.maintenanceMode.activate();
    await refused(() => client.maintenanceMode.deactivate(), 'main');
    await admin.maintenanceMode.deactivate();
  });

  test('sandboxes can still be forked, renamed and destroyed; every environment is listed', async () => {
    const client = await manager('sandbox_only', 'sbx-one');
    const copy = await client.environments.fork('sbx-one', { id: 'sbx-copy' });
    assert.equal(copy.meta.status, 'ready');
    const renamed = await client.environments.rename('sbx-copy', { id: 'sbx-renamed' });
    assert.equal(renamed.id, 'sbx-renamed');
    assert.equal((await client.environments.destroy('sbx-renamed')).id, 'sbx-renamed');
    assert.deepEqual(
      (await client.environments.list()).map((environment) => environment.id),
      ['main', 'sbx-one'],
    );
    assert.equal((await client.environments.find('main')).meta.primary, true);
    assert.equal((await client.maintenanceMode.find()).active, false);
  });
});

describe('a primary_only role reaches the primary only, whatever the path names', () => {
  test('a sandbox, named or created, is refused', async () => {
    await admin.environments.fork('main', { id: 'sbx-two' });
    const client = await manager('primary_only');
    await refused(() => client.environments.fork('main', { id: 'new-sandbox' }), 'new-sandbox');
    await refused(() => client.environments.fork('sbx-two', { id: 'other' }), 'sbx-two');
    await refused(() => client.environments.rename('sbx-two', { id: 'renamed' }), 'sbx-two');
    await refused(() => client.environments.promote('sbx-two'), 'sbx-two');
    await refused(() => client.environments.destroy('sbx-two'), 'sbx-two');
  });

  test('the primary can still be renamed and put in maintenance; every environment is listed', async () => {
    const client = await manager('primary_only');
    assert.equal((await client.environments.rename('main', { id: 'live' })).id, 'live');
    assert.equal((await client.environments.rename('live', { id: 'main' })).id, 'main');
    assert.equal((await client.maintenanceMode.activate()).active, true);
    assert.equal((await client.maintenanceMode.deactivate()).active, false);
    await rejectsWithApiError(client.environments.promote('main'), 'ALREADY_PRIMARY_ENVIRONMENT');
    await rejectsWithApiError(
      client.environments.destroy('main'),
      'CANNOT_DESTROY_PRIMARY_ENVIRONMENT',
    );
    assert.deepEqual(
      (await client.environments.list()).map((environment) => environment.id),
      ['main', 'sbx-one', 'sbx-two'],
    );
    assert.equal((await client.environments.find('sbx-two')).meta.primary, false);
  });
});

describe('a role reaching every environment', () => {
  test('forks, promotes, promotes back and destroys', async () => {
    const client = await manager('all');
    await client.environments.fork('main', { id: 'release' });
    assert.equal((await client.environments.promote('release')).meta.primary, true);
    assert.equal((await client.environments.promote('main')).meta.primary, true);
    assert.equal((await client.environments.destroy('release')).id, 'release');
  });
});

describe('role entries belong to the environment that exists', () => {
  /** The environments a role's record permission entries name, in order. */
  async function entryEnvironments(roleId: string): Promise<string[]> {
    const role = await admin.roles.find(roleId);
    return role.positive_item_type_permissions.map((entry) => String(entry.environment));
  }

  test('entries naming an environment that does not exist are not inherited by a fork or rename of that id', async () => {
    const role = await admin.roles.create({
      name: 'Stale entries',
      environments_access: 'all',
      positive_item_type_permissions: [
        itemPermission('read'),
        itemPermission('all', { environment: 'not-yet' }),
        itemPermission('all', { environment: 'later' }),
      ] as never,
      negative_item_type_permissions: [],
    });
    await admin.environments.fork('main', { id: 'not-yet' });
    assert.deepEqual(await entryEnvironments(role.id), ['main', 'later', 'not-yet']);
    const forked = await admin.roles.find(role.id);
    assert.deepEqual(
      forked.positive_item_type_permissions.filter((entry) => entry.environment === 'not-yet'),
      [{ ...forked.positive_item_type_permissions[0], environment: 'not-yet' }],
      'the fork has its source’s entries, not the stale one',
    );

    await admin.environments.rename('not-yet', { id: 'later' });
    const renamed = await admin.roles.find(role.id);
    assert.deepEqual(
      renamed.positive_item_type_permissions.map((entry) => [entry.environment, entry.action]),
      [
        ['main', 'read'],
        ['later', 'read'],
      ],
      'the renamed environment keeps its own entries only',
    );
    await admin.environments.destroy('later');
    assert.deepEqual(await entryEnvironments(role.id), ['main']);
  });
});
