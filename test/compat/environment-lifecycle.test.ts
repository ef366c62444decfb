import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { LOOPBACK } from '../support/delivery-fixtures.ts';
import { buildWebhook } from '../support/factories.ts';
import { useReceiver } from '../support/receiver.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer({ webhookAllow: LOOPBACK });
const admin = server.client();
const receiver = useReceiver();

/** A token whose role has exactly these flags and environment access. */
async function tokenWith(name: string, attributes: Record<string, unknown>): Promise<string> {
  const role = await admin.roles.create({ name, ...attributes });
  const token = await admin.accessTokens.create({
    name,
    can_access_cda: false,
    can_access_cda_preview: false,
    can_access_cma: true,
    role: { type: 'role', id: role.id },
  });
  assert.ok(token.token);
  return token.token;
}

describe('environment lifecycle through the official client', () => {
  test('fork: errors the CLI expects, then a ready sandbox', async () => {
    await rejectsWithApiError(admin.environments.fork('nope', { id: 'x' }), 'NOT_FOUND');
    await rejectsWithApiError(admin.environments.fork('main', { id: 'main' }), 'INVALID_FIELD', {
      field: 'name',
      code: 'VALIDATION_UNIQUENESS',
    });
    await rejectsWithApiError(admin.environments.fork('main', { id: 'Bad Id' }), 'INVALID_FIELD', {
      field: 'name',
    });
    const forked = await admin.environments.fork('main', { id: 'staging' });
    assert.equal(forked.meta.status, 'ready');
    const list = await admin.environments.list();
    assert.deepEqual(
      list.map((environment) => [environment.id, environment.meta.primary]),
      [
        ['main', true],
        ['staging', false],
      ],
    );
  });

  test('fork with immediate_return answers creating, then becomes ready', async () => {
    const response = await server.request('POST', '/environments/main/fork?immediate_return=true', {
      data: { type: 'environment', id: 'quick' },
    });
    assert.equal(response.status, 200);
    const meta = (response.body as { data: { meta: Record<string, unknown> } }).data.meta;
    assert.equal(meta.status, 'creating');
    const deadline = Date.now() + 20_000;
    let status = 'creating';
    while (status !== 'ready' && Date.now() < deadline) {
      status = (await admin.environments.find('quick')).meta.status;
    }
    assert.equal(status, 'ready');
    await admin.environments.destroy('quick');
  });

  test('maintenance mode refuses writes to the primary only; reads go on', async () => {
    assert.equal((await admin.maintenanceMode.find()).active, false);
    assert.equal((await admin.maintenanceMode.activate()).active, true);
    await assert.rejects(
      admin.itemTypes.create({ name: 'Blocked', api_key: 'blocked' }),
      (error) => {
        assert.equal(apiError(error).response.status, 423);
        assert.ok(apiError(error).findError('MAINTENANCE_MODE'));
        return true;
      },
    );
    assert.deepEqual(await admin.itemTypes.list(), []);
    const staging = server.client({ environment: 'staging' });
    await staging.itemTypes.create({ name: 'Allowed', api_key: 'allowed' });
    assert.equal((await admin.maintenanceMode.deactivate()).active, false);
    await admin.itemTypes.create({ name: 'Unblocked', api_key: 'unblocked' });
  });

  test('promote swaps the primary; requests without X-Environment follow it', async () => {
    await rejectsWithApiError(admin.environments.promote('main'), 'ALREADY_PRIMARY_ENVIRONMENT');
    const promoted = await admin.environments.promote('staging');
    assert.equal(promoted.meta.primary, true);
    assert.equal((await admin.environments.find('main')).meta.primary, false);
    const models = await admin.itemTypes.list();
    assert.deepEqual(
      models.map((model) => model.api_key),
      ['allowed'],
    );
  });

  test('rename: the old id is unknown afterwards; a taken id is refused', async () => {
    await rejectsWithApiError(
      admin.environments.rename('main', { id: 'staging' }),
      'INVALID_FIELD',
      {
        field: 'name',
        code: 'VALIDATION_UNIQUENESS',
      },
    );
    const renamed = await admin.environments.rename('main', { id: 'old-main' });
    assert.equal(renamed.id, 'old-main');
    await rejectsWithApiError(
      server.client({ environment: 'main' }).itemTypes.list(),
      'INVALID_ENVIRONMENT',
    );
    const oldMain = server.client({ environment: 'old-main' });
    assert.deepEqual(
      (await oldMain.itemTypes.list()).map((model) => model.api_key),
      ['unblocked'],
    );
  });

  test('destroy: never the primary; a sandbox goes with all it holds', async () => {
    await rejectsWithApiError(
      admin.environments.destroy('staging'),
      'CANNOT_DESTROY_PRIMARY_ENVIRONMENT',
    );
    const destroyed = await admin.environments.destroy('old-main');
    assert.equal(destroyed.id, 'old-main');
    await rejectsWithApiError(admin.environments.find('old-main'), 'NOT_FOUND');
    await rejectsWithApiError(
      server.client({ environment: 'old-main' }).itemTypes.list(),
      'INVALID_ENVIRONMENT',
    );
    assert.deepEqual(
      (await admin.environments.list()).map((environment) => environment.id),
      ['staging'],
    );
  });

  test('role flags gate environment operations; primary_only cannot enter a sandbox', async () => {
    const plain = await tokenWith('No env flags', { environments_access: 'all' });
    const client = server.client({ apiToken: plain });
    await rejectsWithApiError(
      client.environments.fork('staging', { id: 'x' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(client.maintenanceMode.activate(), 'INSUFFICIENT_PERMISSIONS');
    await rejectsWithApiError(client.environments.promote('staging'), 'INSUFFICIENT_PERMISSIONS');
    assert.equal((await client.environments.list()).length, 1, 'reads need no flag');

    const manager = await tokenWith('Env manager', {
      environments_access: 'all',
      can_manage_environments: true,
    });
    await server.client({ apiToken: manager }).environments.fork('staging', { id: 'sbx' });

    const primaryOnly = await tokenWith('Primary only', {
      environments_access: 'primary_only',
      can_edit_schema: true,
    });
    await server.client({ apiToken: primaryOnly }).itemTypes.list();
    await rejectsWithApiError(
      server.client({ apiToken: primaryOnly, environment: 'sbx' }).itemTypes.list(),
      'INSUFFICIENT_PERMISSIONS',
    );
    const sandboxOnly = await tokenWith('Sandbox only', { environments_access: 'sandbox_only' });
    await server.client({ apiToken: sandboxOnly, environment: 'sbx' }).itemTypes.list();
    await rejectsWithApiError(
      server.client({ apiToken: sandboxOnly }).itemTypes.list(),
      'INSUFFICIENT_PERMISSIONS',
    );
    await admin.environments.destroy('sbx');
  });
});

function webhook(name: string, path: string, events: unknown[]) {
  return buildWebhook(admin, { name, url: `${receiver.url}${path}`, events: events as never });
}

describe('environment events reach webhooks', () => {
  test('environment create/promote/delete and maintenance_mode change, named by environment', async () => {
    await webhook('env events', '/env', [
      { entity_type: 'environment', event_types: ['create', 'promote', 'delete'] },
      { entity_type: 'maintenance_mode', event_types: ['change'] },
    ]);
    await webhook('sandbox models', '/sandbox', [
      {
        entity_type: 'item_type',
        event_types: ['create'],
        filters: [{ entity_type: 'environment_type', entity_ids: ['sandbox'] }],
      },
    ]);
    receiver.requests.length = 0;
    await admin.environments.fork('staging', { id: 'events' });
    await server
      .client({ environment: 'events' })
      .itemTypes.create({ name: 'Sandbox model', api_key: 'sandbox_model' });
    await admin.itemTypes.create({ name: 'Primary model', api_key: 'primary_model' });
    await admin.maintenanceMode.activate();
    await admin.maintenanceMode.deactivate();
    await admin.environments.promote('events');
    await admin.environments.destroy('staging');
    await receiver.waitForRequests(6, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const summary = receiver.requests
      .map((request) => {
        const p = JSON.parse(request.body) as Record<string, unknown>;
        return `${request.path} ${p.entity_type}.${p.event_type} ${p.environment} ${p.is_environment_primary}`;
      })
      .sort();
    assert.deepEqual(summary, [
      '/env environment.create events false',
      '/env environment.delete staging false',
      '/env environment.promote events true',
      '/env maintenance_mode.change staging true',
      '/env maintenance_mode.change staging true',
      '/sandbox item_type.create events false',
    ]);
  });
});
