import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { up as backfillRolePermissions } from '../../src/db/migrations/0005_role_environment_permissions.ts';
import { apiError, rejectsWithApiError } from '../support/api-errors.ts';
import { buildModel, buildRecord, itemTypeRef } from '../support/factories.ts';
import { recordEventCount } from '../support/fixtures.ts';
import { clientWithItemPermissions, itemPermission } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const admin = server.client();

describe('item-type permissions on records', () => {
  test('a model-scoped role reads, lists and writes only that model', async () => {
    const open = await buildRecord(admin);
    const closed = await buildRecord(admin);
    const openModel = open.item_type.id;
    const limited = await clientWithItemPermissions(server, [
      itemPermission('all', { item_type: openModel }),
    ]);

    assert.equal((await limited.items.find(open.id)).id, open.id);
    await rejectsWithApiError(limited.items.find(closed.id), 'INSUFFICIENT_PERMISSIONS');

    const listed = await limited.items.list({ page: { limit: 500 } });
    assert.ok(listed.some((record) => record.id === open.id));
    assert.ok(!listed.some((record) => record.id === closed.id), 'the list leaves it out');
    const ofClosed = await limited.items.list({ filter: { type: closed.item_type.id } });
    assert.deepEqual(ofClosed, [], 'a filter on an unreadable model finds nothing');
    const counted = await limited.items.rawList({ filter: { type: closed.item_type.id } });
    assert.equal(counted.meta.total_count, 0, 'nor counts its records');

    const events = await recordEventCount(server.db);
    await rejectsWithApiError(
      limited.items.create({ item_type: closed.item_type, title: 'no' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      limited.items.update(closed.id, { title: 'no' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(limited.items.destroy(closed.id), 'INSUFFICIENT_PERMISSIONS');
    await rejectsWithApiError(limited.items.publish(closed.id), 'INSUFFICIENT_PERMISSIONS');
    assert.equal(await recordEventCount(server.db), events, 'a refused write emits nothing');
    assert.equal((await admin.items.find(closed.id)).title, closed.title, 'nor changes anything');

    const created = await limited.items.create({ item_type: itemTypeRef(openModel), title: 'yes' });
    assert.equal((await limited.items.update(created.id, { title: 'yes!' })).title, 'yes!');
    await limited.items.destroy(created.id);
  });

  /**
   * A client-chosen id names one record of the environment, whoever may read it: a create
   * naming a taken id must fail, or two records would share it. The refusal says only
   * that the id is taken, the same words whether the caller may read its record or not:
   * nothing of the record (model, values, readability) is told, and only a caller that
   * already holds the id (122 random bits) can ask.
   */
  test('a taken client-chosen id is refused alike whether or not the caller may read its record', async () => {
    const readable = await buildRecord(admin);
    const unreadable = await buildRecord(admin);
    const model = readable.item_type.id;
    const limited = await clientWithItemPermissions(server, [
      itemPermission('all', { item_type: model }),
    ]);
    await rejectsWithApiError(limited.items.find(unreadable.id), 'INSUFFICIENT_PERMISSIONS');
    const refusalFor = async (id: string) => {
      try {
        await limited.items.create({ id, item_type: itemTypeRef(model), title: 'mine' });
      } catch (error) {
        return apiError(error).errors.map((entry) => entry.attributes);
      }
      assert.fail(`a record was created with the taken id ${id}`);
    };
    const ofReadable = await refusalFor(readable.id);
    assert.deepEqual(ofReadable, [
      {
        code: 'INVALID_FIELD',
        doc_url: 'https://www.datocms.com/docs/content-management-api/errors#INVALID_FIELD',
        details: {
          field: 'id',
          code: 'VALIDATION_UNIQUENESS',
          message: 'is already taken',
          record_type: 'Item',
        },
      },
    ]);
    assert.deepEqual(await refusalFor(unreadable.id), ofReadable);
    assert.equal((await admin.items.find(unreadable.id)).title, unreadable.title);
  });

  test('negative entries take an action away: positive minus negative', async () => {
    const record = await buildRecord(admin);
    const noDelete = await clientWithItemPermissions(
      server,
      [itemPermission('all')],
      [itemPermission('delete', { item_type: record.item_type.id })],
    );
    assert.equal((await noDelete.items.update(record.id, { title: 'kept' })).title, 'kept');
    await rejectsWithApiError(noDelete.items.destroy(record.id), 'INSUFFICIENT_PERMISSIONS');
    await rejectsWithApiError(
      noDelete.items.bulkDestroy({ items: [{ type: 'item', id: record.id }] }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.equal((await admin.items.find(record.id)).id, record.id);
    const other = await buildRecord(admin);
    await noDelete.items.destroy(other.id);
  });

  test('bulk operations check every record before changing any', async () => {
    const allowed = await buildRecord(admin);
    const refused = await buildRecord(admin);
    const limited = await clientWithItemPermissions(server, [
      itemPermission('all', { item_type: allowed.item_type.id }),
    ]);
    await rejectsWithApiError(
      limited.items.bulkDestroy({
        items: [
          { type: 'item', id: allowed.id },
          { type: 'item', id: refused.id },
        ],
      }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.equal((await admin.items.find(allowed.id)).id, allowed.id, 'nothing was destroyed');
    await limited.items.bulkDestroy({ items: [{ type: 'item', id: allowed.id }] });
    await rejectsWithApiError(admin.items.find(allowed.id), 'NOT_FOUND');
  });

  test('on_creator "self" reaches only the records the token created', async () => {
    const model = await buildModel(admin);
    await admin.fields.create(model.id, { label: 'Title', api_key: 'title', field_type: 'string' });
    const others = await admin.items.create({ item_type: itemTypeRef(model.id), title: 'admin' });
    const own = await clientWithItemPermissions(server, [
      itemPermission('create', { item_type: model.id }),
      itemPermission('read', { item_type: model.id, on_creator: 'self' }),
      itemPermission('update', { item_type: model.id, on_creator: 'self' }),
    ]);
    const mine = await own.items.create({ item_type: itemTypeRef(model.id), title: 'mine' });
    assert.equal((await own.items.update(mine.id, { title: 'mine!' })).title, 'mine!');
    await rejectsWithApiError(own.items.find(others.id), 'INSUFFICIENT_PERMISSIONS');
    await rejectsWithApiError(
      own.items.update(others.id, { title: 'x' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    const listed = await own.items.list({ filter: { type: model.id } });
    assert.deepEqual(
      listed.map((record) => record.id),
      [mine.id],
    );
  });

  test('references show only the referencing records the role may read', async () => {
    const target = await buildRecord(admin);
    const linking = async () => {
      const model = await buildModel(admin);
      await admin.fields.create(model.id, {
        label: 'Target',
        api_key: 'target',
        field_type: 'link',
        validators: { item_item_type: { item_types: [target.item_type.id] } },
      });
      return admin.items.create({ item_type: itemTypeRef(model.id), target: target.id });
    };
    const visible = await linking();
    const hidden = await linking();
    const all = await admin.items.references(target.id);
    assert.deepEqual(all.map((record) => record.id).sort(), [visible.id, hidden.id].sort());
    const limited = await clientWithItemPermissions(server, [
      itemPermission('read', { item_type: target.item_type.id }),
      itemPermission('read', { item_type: visible.item_type.id }),
    ]);
    assert.deepEqual(
      (await limited.items.references(target.id)).map((record) => record.id),
      [visible.id],
    );
  });

  test('versions follow their record: read to list them, update to restore one', async () => {
    const record = await buildRecord(admin);
    const updated = await admin.items.update(record.id, { title: 'second' });
    const reader = await clientWithItemPermissions(server, [itemPermission('read')]);
    const versions = await reader.itemVersions.list(record.id);
    assert.equal(versions.length, 2);
    const first = versions.find((version) => version.id !== updated.meta.current_version);
    assert.ok(first);
    assert.equal((await reader.itemVersions.find(first.id)).id, first.id);
    await rejectsWithApiError(reader.itemVersions.restore(first.id), 'INSUFFICIENT_PERMISSIONS');
    const stranger = await clientWithItemPermissions(server, [
      itemPermission('all', { item_type: (await buildModel(admin)).id }),
    ]);
    await rejectsWithApiError(stranger.itemVersions.find(first.id), 'INSUFFICIENT_PERMISSIONS');
  });

  test('migration 0005 gives sandboxes forked before enforcement their source’s entries', async () => {
    const record = await buildRecord(admin);
    await admin.environments.fork('main', { id: 'old-sandbox' });
    // The state before this change: forks copied no role entries.
    const roles = await server.db.selectFrom('roles').select(['id', 'attributes']).execute();
    for (const role of roles) {
      const attributes = role.attributes as Record<string, unknown>;
      const lists = Object.fromEntries(
        Object.entries(attributes).map(([key, value]) => [
          key,
          Array.isArray(value)
            ? value.filter(
                (entry) => (entry as { environment?: string }).environment !== 'old-sandbox',
              )
            : value,
        ]),
      );
      await server.db
        .updateTable('roles')
        .set({ attributes: JSON.stringify(lists) })
        .where('id', '=', role.id)
        .execute();
    }
    const inSandbox = server.client({ environment: 'old-sandbox' });
    await rejectsWithApiError(
      inSandbox.items.update(record.id, { title: 'locked out' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await backfillRolePermissions(server.db as unknown as Kysely<unknown>);
    assert.equal((await inSandbox.items.update(record.id, { title: 'back' })).title, 'back');
    const before = await server.db.selectFrom('roles').select('attributes').execute();
    await backfillRolePermissions(server.db as unknown as Kysely<unknown>);
    assert.deepEqual(
      await server.db.selectFrom('roles').select('attributes').execute(),
      before,
      'a second run changes nothing',
    );
    await admin.environments.destroy('old-sandbox');
  });

  test('a fork carries every role’s permissions: Admin and Editor keep editing after a promote, and a rename keeps them', async () => {
    const record = await buildRecord(admin);
    const roles = await admin.roles.list();
    const editorRole = roles.find((role) => role.name === 'Editor');
    assert.ok(editorRole);
    const editorToken = await admin.accessTokens.create({
      name: 'Editor token',
      can_access_cda: false,
      can_access_cda_preview: false,
      can_access_cma: true,
      role: { type: 'role', id: editorRole.id },
    });
    assert.ok(editorToken.token);

    await admin.environments.fork('main', { id: 'next-release' });
    const inSandbox = server.client({ environment: 'next-release' });
    assert.equal(
      (await inSandbox.items.update(record.id, { title: 'sandboxed' })).title,
      'sandboxed',
    );
    await admin.environments.promote('next-release');
    await admin.environments.rename('next-release', { id: 'release' });

    // The promoted, renamed environment is now the primary (no X-Environment).
    assert.equal((await admin.items.update(record.id, { title: 'primary' })).title, 'primary');
    const editor = server.client({ apiToken: editorToken.token });
    assert.equal((await editor.items.update(record.id, { title: 'edited' })).title, 'edited');
    await editor.items.publish(record.id);

    const editorRoleNow = await admin.roles.find(editorRole.id);
    assert.ok(
      editorRoleNow.positive_item_type_permissions.some((entry) => entry.environment === 'release'),
      'the entries follow the rename',
    );
    await admin.environments.destroy('main');
    const adminRole = roles.find((role) => role.name === 'Admin');
    assert.ok(adminRole);
    const adminRoleNow = await admin.roles.find(adminRole.id);
    assert.ok(
      !adminRoleNow.positive_item_type_permissions.some((entry) => entry.environment === 'main'),
      'a destroyed environment takes its entries with it',
    );
  });
});
