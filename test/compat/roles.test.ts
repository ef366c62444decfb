import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Client } from '@datocms/cma-client-node';
import { ROLE_FLAGS } from '../../src/domain/auth/role-attributes.ts';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { createApiToken } from '../support/api-tokens.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const admin = server.client();

const ref = (id: string) => ({ type: 'role' as const, id });

describe('roles through the official client', () => {
  test('the bootstrap Admin role holds every flag in every environment', async () => {
    const roles = await admin.roles.list();
    const adminRole = roles.find((role) => role.name === 'Admin');
    assert.ok(adminRole);
    assert.match(adminRole.id, /^\d+$/);
    for (const flag of ROLE_FLAGS) assert.equal(adminRole[flag], true, flag);
    assert.equal(adminRole.environments_access, 'all');
    assert.deepEqual(adminRole.inherits_permissions_from, []);
    assert.equal(adminRole.meta.final_permissions.can_edit_schema, true);
  });

  test('create with a name only: every flag off, no environment, empty lists', async () => {
    const role = await admin.roles.create({ name: 'Bare' });
    for (const flag of ROLE_FLAGS) assert.equal(role[flag], false, flag);
    assert.equal(role.environments_access, 'none');
    assert.deepEqual(role.positive_item_type_permissions, []);
    assert.deepEqual(role.negative_search_index_permissions, []);
    assert.deepEqual(role.inherits_permissions_from, []);
    const raw = (await server.request('GET', `/roles/${role.id}`)).body as {
      data: { attributes: Record<string, unknown>; relationships: unknown };
    };
    const { name: _name, ...declared } = raw.data.attributes;
    assert.deepEqual(role.meta.final_permissions, declared, 'nothing inherited: final = declared');
    assert.deepEqual(raw.data.relationships, { inherits_permissions_from: { data: [] } });
    assert.deepEqual(await admin.roles.find(role.id), role);
  });

  test('update changes what it sends; permission lists are replaced whole', async () => {
    const entry = {
      action: 'all' as const,
      environment: 'main',
      on_creator: 'anyone' as const,
      localization_scope: 'all' as const,
    };
    const role = await admin.roles.create({
      name: 'Copywriter',
      can_manage_menu: true,
      environments_access: 'primary_only',
      positive_item_type_permissions: [entry],
      negative_item_type_permissions: [],
    });
    assert.deepEqual(role.positive_item_type_permissions, [entry]);

    const renamed = await admin.roles.update(role.id, {
      name: 'Senior editor',
      can_edit_schema: true,
    });
    assert.equal(renamed.name, 'Senior editor');
    assert.equal(renamed.can_manage_menu, true, 'omitted attributes stay unchanged');
    assert.equal(renamed.can_edit_schema, true);
    assert.deepEqual(renamed.positive_item_type_permissions, [entry]);

    const narrowed = await admin.roles.update(role.id, {
      positive_item_type_permissions: [],
      negative_item_type_permissions: [{ ...entry, action: 'delete' as const }],
    });
    assert.deepEqual(narrowed.positive_item_type_permissions, []);
    assert.equal(narrowed.negative_item_type_permissions.length, 1);

    // A found role can be passed back whole, meta included.
    const again = await admin.roles.update(role.id, { ...narrowed, can_manage_webhooks: true });
    assert.equal(again.can_manage_webhooks, true);
  });

  test('positive and negative lists must be sent together', async () => {
    await rejectsWithApiError(
      admin.roles.create({ name: 'Half', positive_upload_permissions: [] }),
      'INVALID_FIELD',
      { field: 'negative_upload_permissions', code: 'VALIDATION_REQUIRED', record_type: 'Role' },
    );
  });

  test('names are required and unique regardless of case', async () => {
    await admin.roles.create({ name: 'Translator' });
    await rejectsWithApiError(admin.roles.create({ name: 'TRANSLATOR' }), 'INVALID_FIELD', {
      field: 'name',
      code: 'VALIDATION_UNIQUENESS',
      record_type: 'Role',
    });
    await rejectsWithApiError(admin.roles.create({ name: '  ' }), 'INVALID_FIELD', {
      field: 'name',
      code: 'VALIDATION_REQUIRED',
    });
  });

  test('10 concurrent creates with one name give one role and 9 uniqueness errors', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => admin.roles.create({ name: 'Racer' })),
    );
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
    for (const result of results) {
      if (result.status === 'rejected') {
        assert.ok(apiError(result.reason).findError('INVALID_FIELD', { field: 'name' }));
      }
    }
  });

  test('malformed documents are INVALID_FORMAT', async () => {
    const unknown = await server.request('POST', '/roles', {
      data: { type: 'role', attributes: { name: 'X', can_fly: true } },
    });
    assert.equal(unknown.status, 422);
    assert.match(JSON.stringify(unknown.body), /INVALID_FORMAT/);
    await rejectsWithApiError(
      admin.roles.create({ name: 'X', environments_access: 'moon' as never }),
      'INVALID_FORMAT',
    );
    await rejectsWithApiError(
      admin.roles.create({
        name: 'X',
        positive_item_type_permissions: [{ action: 'fly', environment: 'main' } as never],
        negative_item_type_permissions: [],
      }),
      'INVALID_FORMAT',
    );
  });

  test('final permissions add up the inherited roles, widest environments first', async () => {
    const schema = await admin.roles.create({
      name: 'Schema',
      can_edit_schema: true,
      environments_access: 'sandbox_only',
    });
    const menu = await admin.roles.create({
      name: 'Menu',
      can_manage_menu: true,
      environments_access: 'primary_only',
      inherits_permissions_from: [ref(schema.id)],
    });
    const child = await admin.roles.create({
      name: 'Child',
      can_manage_webhooks: true,
      inherits_permissions_from: [ref(menu.id)],
    });
    assert.deepEqual(child.inherits_permissions_from, [ref(menu.id)]);
    assert.equal(child.can_edit_schema, false, 'declared attributes stay as declared');
    const final = child.meta.final_permissions;
    assert.equal(final.can_manage_webhooks, true);
    assert.equal(final.can_manage_menu, true);
    assert.equal(final.can_edit_schema, true, 'inherited through two levels');
    assert.equal(final.can_manage_users, false);
    assert.equal(final.environments_access, 'all');
    assert.equal(
      (await admin.roles.find(menu.id)).meta.final_permissions.can_manage_webhooks,
      false,
    );
  });

  test('a token acts with its role final permissions, inherited ones included', async () => {
    const granting = await admin.roles.create({
      name: 'Schema editor',
      can_edit_schema: true,
      environments_access: 'all',
    });
    const { token, roleId } = await createApiToken(admin, {
      inherits_permissions_from: [ref(granting.id)],
    });
    const client = server.client({ apiToken: token });
    const model = await client.itemTypes.create({ name: 'Inherited', api_key: 'inherited' });
    assert.equal(model.api_key, 'inherited');

    await admin.roles.update(roleId, { inherits_permissions_from: [] });
    await rejectsWithApiError(client.itemTypes.list(), 'INSUFFICIENT_PERMISSIONS');
  });

  test('inherited roles must exist and never lead back to the role', async () => {
    const a = await admin.roles.create({ name: 'A' });
    const b = await admin.roles.create({ name: 'B', inherits_permissions_from: [ref(a.id)] });
    const invalid = { field: 'inherits_permissions_from', code: 'VALIDATION_INVALID' };
    await rejectsWithApiError(
      admin.roles.create({ name: 'C', inherits_permissions_from: [ref('999999')] }),
      'INVALID_FIELD',
      invalid,
    );
    await rejectsWithApiError(
      admin.roles.create({ name: 'C', inherits_permissions_from: [ref('not-a-number')] }),
      'INVALID_FIELD',
      invalid,
    );
    await rejectsWithApiError(
      admin.roles.update(a.id, { inherits_permissions_from: [ref(a.id)] }),
      'INVALID_FIELD',
      invalid,
    );
    await rejectsWithApiError(
      admin.roles.update(a.id, { inherits_permissions_from: [ref(b.id)] }),
      'INVALID_FIELD',
      invalid,
    );
    assert.deepEqual((await admin.roles.find(a.id)).inherits_permissions_from, []);
  });

  test('duplicate names the copy "<name> (copy #N)" and keeps everything else', async () => {
    const parent = await admin.roles.create({ name: 'Parent' });
    const source = await admin.roles.create({
      name: 'Reviewer',
      can_manage_workflows: true,
      inherits_permissions_from: [ref(parent.id)],
    });
    const first = await admin.roles.duplicate(source.id);
    const second = await admin.roles.duplicate(source.id);
    assert.equal(first.name, 'Reviewer (copy #1)');
    assert.equal(second.name, 'Reviewer (copy #2)');
    assert.notEqual(first.id, source.id);
    assert.equal(first.can_manage_workflows, true);
    assert.deepEqual(first.inherits_permissions_from, [ref(parent.id)]);
  });

  test('a role in use by a token or inherited by a role cannot be deleted', async () => {
    const { roleId } = await createApiToken(admin, {});
    await rejectsWithApiError(admin.roles.destroy(roleId), 'REQUIRED_BY_ASSOCIATION');
    const parent = await admin.roles.create({ name: 'Inherited parent' });
    const heir = await admin.roles.create({
      name: 'Heir',
      inherits_permissions_from: [ref(parent.id)],
    });
    await rejectsWithApiError(admin.roles.destroy(parent.id), 'REQUIRED_BY_ASSOCIATION');

    const deleted = await admin.roles.destroy(heir.id);
    assert.equal(deleted.id, heir.id);
    assert.equal(deleted.name, 'Heir');
    assert.equal((await admin.roles.destroy(parent.id)).id, parent.id);
    await rejectsWithApiError(admin.roles.find(parent.id), 'NOT_FOUND');
  });

  test('unknown ids are 404 NOT_FOUND', async () => {
    await rejectsWithApiError(admin.roles.find('999999'), 'NOT_FOUND');
    await rejectsWithApiError(admin.roles.find('abc'), 'NOT_FOUND');
    await rejectsWithApiError(admin.roles.update('abc', { name: 'X' }), 'NOT_FOUND');
    await rejectsWithApiError(admin.roles.duplicate('999999'), 'NOT_FOUND');
    await rejectsWithApiError(admin.roles.destroy('999999'), 'NOT_FOUND');
  });

  test('reading or changing roles needs can_manage_users', async () => {
    const { token } = await createApiToken(admin, {
      environments_access: 'all',
      can_manage_access_tokens: true,
    });
    const client = server.client({ apiToken: token });
    await rejectsWithApiError(client.roles.list(), 'INSUFFICIENT_PERMISSIONS');
    await rejectsWithApiError(client.roles.create({ name: 'Sneaky' }), 'INSUFFICIENT_PERMISSIONS');

    const manager = await createApiToken(admin, {
      environments_access: 'all',
      can_manage_users: true,
    });
    const managerClient = server.client({ apiToken: manager.token });
    assert.ok((await managerClient.roles.list()).length > 0);
  });
});

describe('no privilege escalation through roles', () => {
  const readEntry = {
    action: 'read' as const,
    environment: 'main',
    on_creator: 'anyone' as const,
    localization_scope: 'all' as const,
  };

  async function usersManager(extra: Omit<Parameters<Client['roles']['create']>[0], 'name'> = {}) {
    const created = await createApiToken(admin, {
      environments_access: 'all',
      can_manage_users: true,
      ...extra,
    });
    return { ...created, client: server.client({ apiToken: created.token }) };
  }

  async function adminRoleId(): Promise<string> {
    const found = (await admin.roles.list()).find((role) => role.name === 'Admin');
    assert.ok(found);
    return found.id;
  }

  test('a role with only can_manage_users cannot raise its own role, so cannot write the schema', async () => {
    const { client, roleId } = await usersManager();
    await assert.rejects(
      client.roles.update(roleId, { can_edit_schema: true }),
      (error) =>
        apiError(error).findError('INSUFFICIENT_PERMISSIONS') !== undefined &&
        JSON.stringify(apiError(error).errors).includes('can_edit_schema'),
    );
    assert.equal((await admin.roles.find(roleId)).can_edit_schema, false, 'nothing changed');
    await rejectsWithApiError(
      client.itemTypes.create({ name: 'Escalated', api_key: 'escalated' }),
      'INSUFFICIENT_PERMISSIONS',
    );
  });

  test('nor by inheriting from a stronger role, its own or a new one', async () => {
    const { client, roleId } = await usersManager();
    const strong = await adminRoleId();
    await rejectsWithApiError(
      client.roles.update(roleId, { inherits_permissions_from: [ref(strong)] }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      client.roles.create({ name: 'Heir of admin', inherits_permissions_from: [ref(strong)] }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.deepEqual((await admin.roles.find(roleId)).inherits_permissions_from, []);
  });

  test('roles are created and changed only within the caller rights', async () => {
    const { client, roleId } = await usersManager({
      environments_access: 'primary_only',
      can_manage_menu: true,
    });
    await rejectsWithApiError(
      client.roles.create({ name: 'Schema writer', can_edit_schema: true }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      client.roles.create({ name: 'Everywhere', environments_access: 'all' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      client.roles.create({ name: 'Sandboxes', environments_access: 'sandbox_only' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    const within = await client.roles.create({
      name: 'Menu editor',
      can_manage_menu: true,
      environments_access: 'primary_only',
    });
    assert.equal(within.can_manage_menu, true);
    const narrowed = await client.roles.update(within.id, { can_manage_menu: false });
    assert.equal(narrowed.can_manage_menu, false);
    // Its own role may change, as long as it does not go up.
    assert.equal(
      (await client.roles.update(roleId, { name: 'Renamed manager' })).name,
      'Renamed manager',
    );
  });

  test('a role above the caller cannot be changed, duplicated or deleted by it', async () => {
    const { client } = await usersManager();
    const strong = await admin.roles.create({ name: 'Strong', can_edit_schema: true });
    await rejectsWithApiError(
      client.roles.update(strong.id, { can_edit_schema: false }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(client.roles.duplicate(strong.id), 'INSUFFICIENT_PERMISSIONS');
    await rejectsWithApiError(client.roles.destroy(strong.id), 'INSUFFICIENT_PERMISSIONS');
    assert.equal((await admin.roles.find(strong.id)).can_edit_schema, true);
    const weak = await admin.roles.create({ name: 'Weak' });
    assert.match((await client.roles.duplicate(weak.id)).name, /^Weak \(copy #1\)$/);
    assert.equal((await client.roles.destroy(weak.id)).id, weak.id);
  });

  test('record permission lists no wider than the caller own', async () => {
    const { client } = await usersManager({
      positive_item_type_permissions: [readEntry],
      negative_item_type_permissions: [{ ...readEntry, item_type: '42' }],
    });
    await rejectsWithApiError(
      client.roles.create({
        name: 'Writes records',
        positive_item_type_permissions: [{ ...readEntry, action: 'all' }],
        negative_item_type_permissions: [{ ...readEntry, item_type: '42' }],
      }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      client.roles.create({
        name: 'Reads model 42 too',
        positive_item_type_permissions: [readEntry],
        negative_item_type_permissions: [],
      }),
      'INSUFFICIENT_PERMISSIONS',
    );
    const narrower = await client.roles.create({
      name: 'Reads model 7',
      positive_item_type_permissions: [{ ...readEntry, item_type: '7' }],
      negative_item_type_permissions: [{ ...readEntry, item_type: '42' }],
    });
    assert.equal(narrower.positive_item_type_permissions.length, 1);
  });
});
