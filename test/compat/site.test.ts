import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadScope } from '../../src/db/environment-scope.ts';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { insertField } from '../support/fixtures.ts';
import { tokenWithFlags } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();

async function defaultValueOf(id: string): Promise<unknown> {
  const row = await (await loadScope(server.db)).db
    .selectFrom('fields')
    .select('default_value')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.default_value;
}

// Tests share one server and run in order; each leaves the locales as ["en"].
describe('site through the official client', () => {
  test('a new project has locales ["en"], timezone UTC and every documented member', async () => {
    const site = await server.client().site.find();
    assert.equal(site.id, '1');
    assert.equal(site.type, 'site');
    assert.deepEqual(site.locales, ['en']);
    assert.equal(site.timezone, 'UTC');
    assert.equal(site.domain, null);
    assert.equal(site.internal_domain, null);
    assert.equal(site.last_data_change_at, null);
    assert.deepEqual(site.assets_cdn_default_settings, { image: {}, video: {} });
    assert.deepEqual(site.theme, { type: 'monochromatic', hue: 190, logo: null });
    assert.deepEqual(site.item_types, []);
    assert.equal(site.account, null);
    assert.equal(site.meta.draft_mode_default, false);
    assert.equal(site.meta.improved_timezone_management, true);
    assert.equal(site.meta.allow_custom_theme, true);
    assert.ok(!Number.isNaN(Date.parse(site.meta.created_at)));
  });

  test('include puts the models, their fields and fieldsets in included', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Page', api_key: 'page' });
    const site = await client.site.find({ include: 'item_types' });
    assert.deepEqual(site.item_types, [{ type: 'item_type', id: model.id }]);

    const title = await client.fields.create(model.id, {
      label: 'Title',
      api_key: 'title',
      field_type: 'string',
    });
    const seo = await client.fieldsets.create(model.id, { title: 'SEO' });
    const raw = await client.site.rawFind({
      include: 'item_types,item_types.fields,item_types.fieldsets',
    });
    assert.deepEqual(
      raw.included?.map((r) => [r.type, r.id]),
      [
        ['item_type', model.id],
        ['field', title.id],
        ['fieldset', seo.id],
      ],
    );
    const modelsOnly = await client.site.rawFind({ include: 'item_types' });
    assert.deepEqual(
      modelsOnly.included?.map((r) => r.type),
      ['item_type'],
    );
    const plain = await server.request('GET', '/site?include=account');
    assert.equal((plain.body as { included?: unknown }).included, undefined);

    const bogus = await server.request('GET', '/site?include=webhooks');
    assert.equal(bogus.status, 422);
    assert.match(JSON.stringify(bogus.body), /INVALID_PARAMS/);
    await client.itemTypes.destroy(model.id);
  });

  test('update changes the settings sent and keeps the others', async () => {
    const client = server.client();
    const theme = {
      type: 'custom' as const,
      logo: null,
      primary_color: { red: 1, green: 2, blue: 3, alpha: 255 },
      light_color: { red: 4, green: 5, blue: 6, alpha: 255 },
      accent_color: { red: 7, green: 8, blue: 9, alpha: 255 },
    };
    const updated = await client.site.update({
      name: 'My project',
      timezone: 'Europe/Rome',
      no_index: true,
      theme,
      global_seo: {
        site_name: 'Mine',
        fallback_seo: { title: 'T', description: 'D', image: null },
      },
    });
    assert.equal(updated.name, 'My project');
    assert.equal(updated.timezone, 'Europe/Rome');
    assert.equal(updated.no_index, true);
    assert.deepEqual(updated.theme, { ...theme, hue: null });
    assert.equal(updated.global_seo?.site_name, 'Mine');
    assert.deepEqual(updated.locales, ['en'], 'omitted settings stay unchanged');
    assert.ok(updated.last_data_change_at !== null);
    assert.deepEqual(await client.site.find(), updated);

    // What GET returns can be sent back as is.
    const again = await client.site.update({ theme: updated.theme, timezone: 'UTC' });
    assert.deepEqual(again.theme, updated.theme);
  });

  test('changing locales rewrites localized default values in the same change', async () => {
    const client = server.client();
    const model = await client.itemTypes.create({ name: 'Post', api_key: 'post' });
    const title = await insertField(server.db, model.id, {
      api_key: 'title',
      field_type: 'string',
      localized: true,
      default_value: { en: 'Hello' },
    });
    const empty = await insertField(server.db, model.id, {
      api_key: 'subtitle',
      field_type: 'string',
      localized: true,
    });
    const plain = await insertField(server.db, model.id, {
      api_key: 'slug',
      field_type: 'string',
      default_value: 'fixed',
    });

    const site = await client.site.update({ locales: ['en', 'it', 'pt-BR'] });
    assert.deepEqual(site.locales, ['en', 'it', 'pt-BR']);
    assert.deepEqual(await defaultValueOf(title), { en: 'Hello', it: null, 'pt-BR': null });
    assert.deepEqual(await defaultValueOf(empty), { en: null, it: null, 'pt-BR': null });
    assert.equal(await defaultValueOf(plain), 'fixed');

    await (await loadScope(server.db)).db
      .updateTable('fields')
      .set({ default_value: JSON.stringify({ en: 'Hello', it: 'Ciao', 'pt-BR': 'Olá' }) })
      .where('id', '=', title)
      .execute();
    await client.site.update({ locales: ['it', 'en'] });
    assert.deepEqual(await defaultValueOf(title), { it: 'Ciao', en: 'Hello' });
    await client.site.update({ locales: ['en'] });
    assert.deepEqual(await defaultValueOf(title), { en: 'Hello' });
    assert.equal(await defaultValueOf(plain), 'fixed');
    await client.itemTypes.destroy(model.id);
  });

  test('bad locales, timezones and names are refused and change nothing', async () => {
    const client = server.client();
    const before = await client.site.find();
    const cases: [Parameters<typeof client.site.update>[0], Record<string, string>][] = [
      [{ locales: ['EN'] }, { field: 'locales', code: 'VALIDATION_FORMAT', record_type: 'Site' }],
      [{ locales: ['en', 'en_US'] }, { field: 'locales', code: 'VALIDATION_FORMAT' }],
      [{ locales: ['english'] }, { field: 'locales', code: 'VALIDATION_FORMAT' }],
      [{ locales: ['en', 'it', 'en'] }, { field: 'locales', code: 'VALIDATION_UNIQUENESS' }],
      [{ timezone: 'Mars/Olympus' }, { field: 'timezone', code: 'VALIDATION_INCLUSION' }],
      [{ timezone: 'europe/rome' }, { field: 'timezone', code: 'VALIDATION_INCLUSION' }],
      [{ name: '  ' }, { field: 'name', code: 'VALIDATION_REQUIRED' }],
    ];
    for (const [body, details] of cases) {
      await rejectsWithApiError(client.site.update(body), 'INVALID_FIELD', details);
    }
    await rejectsWithApiError(
      client.site.update({ locales: [] as unknown as ['en'] }),
      'MISSING_LOCALES',
    );
    assert.deepEqual(await client.site.find(), before);
  });

  test('unknown settings and malformed values are refused by the schema', async () => {
    const put = (attributes: Record<string, unknown>, type = 'site') =>
      server.request('PUT', '/site', { data: { type, attributes } });
    for (const attributes of [
      { domain: 'example.com' },
      { locales: 'en' },
      { theme: { type: 'monochromatic', hue: 400, logo: null } },
      { global_seo: { site_name: 'X', extra: true } },
    ]) {
      const response = await put(attributes);
      assert.equal(response.status, 422, JSON.stringify(attributes));
      assert.match(JSON.stringify(response.body), /INVALID_FORMAT/);
    }
    const wrongType = await put({ name: 'X' }, 'item_type');
    assert.match(JSON.stringify(wrongType.body), /INVALID_TYPE/);
  });

  test('each setting needs its own role flag', async () => {
    const siteOnly = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_edit_site']),
    });
    const renamed = await siteOnly.site.update({ name: 'Renamed', require_2fa: false });
    assert.equal(renamed.name, 'Renamed');
    await rejectsWithApiError(
      siteOnly.site.update({ locales: ['en', 'it'] }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      siteOnly.site.update({ no_index: false }),
      'INSUFFICIENT_PERMISSIONS',
    );

    const environment = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_edit_environment']),
    });
    assert.equal(
      (await environment.site.update({ timezone: 'Asia/Tokyo' })).timezone,
      'Asia/Tokyo',
    );
    await rejectsWithApiError(environment.site.update({ name: 'No' }), 'INSUFFICIENT_PERMISSIONS');

    const favicon = server.client({
      apiToken: await tokenWithFlags(server.db, ['can_edit_favicon']),
    });
    assert.equal((await favicon.site.update({ no_index: false })).no_index, false);
    await rejectsWithApiError(
      favicon.site.update({ theme: { type: 'monochromatic', hue: 1, logo: null } }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.equal((await favicon.site.find()).name, 'Renamed', 'reading needs no flag');
  });
});

describe('site update as a job', () => {
  const jobs = useTestServer({ asyncJobs: true });

  test('with async jobs on, the client follows the job to the updated site', async () => {
    const raw = await jobs.request('PUT', '/site', {
      data: { type: 'site', attributes: { name: 'Queued' } },
    });
    assert.equal(raw.status, 202);
    assert.equal((raw.body as { data: { type: string } }).data.type, 'job');
    const site = await jobs.client().site.update({ name: 'Through a job' });
    assert.equal(site.name, 'Through a job');
  });
});
