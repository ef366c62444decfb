import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { tokenWithFlags } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

async function createModel(apiKey: string, environment?: string) {
  const client = server.client({ environment });
  return client.itemTypes.create({ name: apiKey, api_key: apiKey });
}

describe('plugins through the official client', () => {
  test('create by package name or by name and url, find, list, update, destroy', async () => {
    const client = server.client();
    const publicPlugin = await client.plugins.create({
      package_name: 'datocms-plugin-star-rating-editor',
      package_version: '1.2.0',
    });
    assert.equal(publicPlugin.type, 'plugin');
    assert.equal(publicPlugin.package_name, 'datocms-plugin-star-rating-editor');
    assert.equal(publicPlugin.package_version, '1.2.0');
    assert.equal(publicPlugin.name, 'datocms-plugin-star-rating-editor');
    assert.match(publicPlugin.url, /^https:\/\//);
    assert.deepEqual(publicPlugin.parameters, {});
    assert.equal(publicPlugin.meta.version, '2');

    const privatePlugin = await client.plugins.create({
      name: 'Private editor',
      description: 'Ours',
      url: 'https://plugins.example.com/editor/',
      permissions: ['currentUserAccessToken'],
    });
    assert.equal(privatePlugin.package_name, null);
    assert.equal(privatePlugin.url, 'https://plugins.example.com/editor/');
    assert.deepEqual(privatePlugin.permissions, ['currentUserAccessToken']);

    assert.deepEqual(await client.plugins.find(privatePlugin.id), privatePlugin);
    assert.deepEqual(
      (await client.plugins.list()).map((plugin) => plugin.id),
      [publicPlugin.id, privatePlugin.id],
    );

    const updated = await client.plugins.update(privatePlugin.id, {
      parameters: { apiKey: 'abc', nested: { on: true } },
    });
    assert.deepEqual(updated.parameters, { apiKey: 'abc', nested: { on: true } });
    assert.equal(updated.name, 'Private editor', 'omitted attributes stay unchanged');

    assert.equal((await client.plugins.destroy(publicPlugin.id)).id, publicPlugin.id);
    assert.equal((await client.plugins.destroy(privatePlugin.id)).id, privatePlugin.id);
    await rejectsWithApiError(client.plugins.find(privatePlugin.id), 'NOT_FOUND');
  });

  test('bad input is refused and changes nothing', async () => {
    const client = server.client();
    const before = await client.plugins.list();
    await rejectsWithApiError(client.plugins.create({ name: 'No url' }), 'INVALID_FIELD', {
      field: 'url',
    });
    await rejectsWithApiError(
      client.plugins.create({ name: 'Bad url', url: 'ftp://x.example.com' }),
      'INVALID_FIELD',
      { field: 'url' },
    );
    await rejectsWithApiError(
      client.plugins.create({ url: 'https://x.example.com' }),
      'INVALID_FIELD',
      {
        field: 'name',
      },
    );
    const plugin = await client.plugins.create({ name: 'Ok', url: 'https://ok.example.com' });
    await rejectsWithApiError(
      client.plugins.create({ id: plugin.id, name: 'Dup', url: 'https://ok.example.com' }),
      'INVALID_FIELD',
      { field: 'id' },
    );
    await rejectsWithApiError(client.plugins.update(plugin.id, { url: '' }), 'INVALID_FIELD', {
      field: 'url',
    });
    await rejectsWithApiError(client.plugins.update('missing', { name: 'x' }), 'NOT_FOUND');
    assert.equal((await client.plugins.list()).length, before.length + 1);
    await client.plugins.destroy(plugin.id);
  });

  test('writes need can_edit_schema', async () => {
    const token = await tokenWithFlags(server.db, []);
    const limited = server.client({ apiToken: token });
    await rejectsWithApiError(
      limited.plugins.create({ name: 'x', url: 'https://x.example.com' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.ok(Array.isArray(await limited.plugins.list()));
  });

  test('a field may use an installed plugin as editor and addon; a missing one is refused', async () => {
    const client = server.client();
    const model = await createModel('rated');
    const editor = await client.plugins.create({ name: 'Stars', url: 'https://stars.example.com' });
    const addon = await client.plugins.create({ name: 'Count', url: 'https://count.example.com' });
    const appearance = {
      editor: editor.id,
      field_extension: 'starRating',
      parameters: { maxRating: 5 },
      addons: [{ id: addon.id, parameters: { warn: 80 } }],
    };
    const field = await client.fields.create(model.id, {
      label: 'Rating',
      api_key: 'rating',
      field_type: 'integer',
      appearance,
    });
    assert.deepEqual(field.appearance, appearance);
    assert.deepEqual(
      (await client.plugins.fields(editor.id)).map((f) => f.id),
      [field.id],
    );
    assert.deepEqual(
      (await client.plugins.fields(addon.id)).map((f) => f.id),
      [field.id],
    );
    await rejectsWithApiError(client.plugins.destroy(editor.id), 'REQUIRED_BY_ASSOCIATION');

    await rejectsWithApiError(
      client.fields.create(model.id, {
        label: 'Other',
        api_key: 'other',
        field_type: 'integer',
        appearance: { editor: 'no-such-plugin', parameters: {}, addons: [] },
      }),
      'INVALID_FIELD',
      { field: 'appearance' },
    );
    await rejectsWithApiError(
      client.fields.update(field.id, {
        appearance: { editor: 'integer', parameters: {}, addons: [{ id: 'gone', parameters: {} }] },
      }),
      'INVALID_FIELD',
      { field: 'appearance' },
    );
    assert.deepEqual((await client.fields.find(field.id)).appearance, appearance);
  });

  test('a fork copies plugins with their ids; each environment keeps its own', async () => {
    const client = server.client();
    const plugin = await client.plugins.create({
      name: 'Forked',
      url: 'https://forked.example.com',
    });
    await client.plugins.update(plugin.id, { parameters: { a: 1 } });
    await client.environments.fork('main', { id: 'plugins-sandbox' });
    const sandbox = server.client({ environment: 'plugins-sandbox' });
    const copy = await sandbox.plugins.find(plugin.id);
    assert.deepEqual(copy, await client.plugins.find(plugin.id));

    await sandbox.plugins.update(plugin.id, { parameters: { a: 2 } });
    assert.deepEqual((await client.plugins.find(plugin.id)).parameters, { a: 1 });

    const onlyInSandbox = await sandbox.plugins.create({
      name: 'Sandbox only',
      url: 'https://sandbox.example.com',
    });
    await rejectsWithApiError(client.plugins.find(onlyInSandbox.id), 'NOT_FOUND');
    const model = await createModel('main_model');
    await rejectsWithApiError(
      client.fields.create(model.id, {
        label: 'X',
        api_key: 'x',
        field_type: 'string',
        appearance: { editor: onlyInSandbox.id, parameters: {}, addons: [] },
      }),
      'INVALID_FIELD',
      { field: 'appearance' },
    );
  });
});
