import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildClient } from '@datocms/cma-client-node';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { localFile, solidImage } from '../support/images.ts';
import { tokenWithRole } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer({ uploadMaxBytes: 64 * 1024 });
const client = server.client();

async function issue(filename: string) {
  return client.uploadRequest.create({ filename });
}

async function put(url: string, body: string | Uint8Array, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'PUT', body: new Blob([body as BlobPart]), headers });
}

describe('the upload URL', () => {
  test('takes one file with no other credential; a tampered or used URL is refused', async () => {
    const request = await issue('a file name with spaces & symbols!.txt');
    assert.match(request.id, /^\/\d+\/\d+-a-file-name-with-spaces-symbols-\.txt$/);
    assert.deepEqual(request.request_headers, {});
    const tampered = request.url.replace(/\.[^.]+$/, '.AAAA');
    const refused = await put(tampered, 'x');
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).data[0].attributes.code, 'INSUFFICIENT_PERMISSIONS');
    assert.equal((await put(request.url, 'first')).status, 200);
    // A second PUT before the upload is created replaces the bytes.
    assert.equal((await put(request.url, 'second version')).status, 200);
    const upload = await client.uploads.create({ path: request.id });
    assert.equal(upload.size, 'second version'.length);
    const reused = await put(request.url, 'third');
    assert.equal(reused.status, 403);
    assert.equal((await reused.json()).data[0].attributes.details.reason, 'consumed');
  });

  test('a file over FIELDHOUSE_UPLOAD_MAX_BYTES is refused and leaves nothing to create an upload from', async () => {
    const request = await issue('big.bin');
    const tooBig = await put(request.url, Buffer.alloc(64 * 1024 + 1));
    assert.equal(tooBig.status, 413);
    assert.equal((await tooBig.json()).data[0].attributes.details.max_bytes, 64 * 1024);
    await rejectsWithApiError(client.uploads.create({ path: request.id }), 'INVALID_FIELD', {
      field: 'path',
    });
  });

  test('an upload needs a path handed out by an upload request, with its bytes, used once', async () => {
    await rejectsWithApiError(
      client.uploads.create({ path: '/1/123-made-up.png' }),
      'INVALID_FIELD',
      {
        field: 'path',
      },
    );
    const request = await issue('once.txt');
    await rejectsWithApiError(client.uploads.create({ path: request.id }), 'INVALID_FIELD', {
      field: 'path',
    });
    await put(request.url, 'bytes');
    await client.uploads.create({ path: request.id });
    await rejectsWithApiError(client.uploads.create({ path: request.id }), 'INVALID_FIELD', {
      field: 'path',
    });
  });

  test('default metadata: unknown locales and focal points outside [0, 1] are refused', async () => {
    const request = await issue('meta.txt');
    await put(request.url, 'bytes');
    await rejectsWithApiError(
      client.uploads.create({ path: request.id, default_field_metadata: { alt: { xx: 'no' } } }),
      'INVALID_FIELD',
      { field: 'default_field_metadata' },
    );
    await rejectsWithApiError(
      client.uploads.create({
        path: request.id,
        default_field_metadata: { focal_point: { x: 1.5, y: 0 } },
      }),
      'INVALID_FIELD',
      { field: 'default_field_metadata' },
    );
  });
});

describe('listing uploads', () => {
  test('filters by md5, size, type and tags, orders and pages, counting all matches', async () => {
    await server.ready();
    const made = [];
    for (const [name, side, tags] of [
      ['small.png', 8, ['icon']],
      ['medium.png', 40, ['icon', 'hero']],
      ['large.png', 90, ['hero']],
    ] as const) {
      made.push(
        await client.uploads.createFromLocalFile({
          localPath: localFile(name, await solidImage(side, side, { r: side, g: 0, b: 0 })),
          tags: [...tags],
        }),
      );
    }
    const [small, medium, large] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
    const byMd5 = await client.uploads.list({ filter: { fields: { md5: { eq: medium.md5 } } } });
    assert.deepEqual(
      byMd5.map((u) => u.id),
      [medium.id],
    );
    const pngs = await client.uploads.list({
      filter: { fields: { mime_type: { eq: 'image/png' }, tags: { contains: 'hero' } } },
      order_by: 'size_ASC',
    });
    assert.deepEqual(
      pngs.map((u) => u.id),
      [medium.id, large.id],
    );
    const wide = await client.uploads.list({
      filter: { fields: { width: { gte: 40 } } },
      order_by: 'size_DESC',
    });
    assert.deepEqual(
      wide.map((u) => u.id),
      [large.id, medium.id],
    );
    const query = await client.uploads.list({ filter: { query: 'SMALL' } });
    assert.deepEqual(
      query.map((u) => u.id),
      [small.id],
    );
    const ids = await client.uploads.list({
      filter: { ids: `${large.id},${small.id}` },
      order_by: 'filename_ASC',
    });
    assert.deepEqual(
      ids.map((u) => u.filename),
      ['large.png', 'small.png'],
    );
    const page = await client.uploads.rawList({
      page: { offset: 1, limit: 1 },
      order_by: '_created_at_ASC',
    });
    assert.equal(page.data.length, 1);
    assert.ok(page.meta.total_count >= 3);
    await rejectsWithApiError(client.uploads.rawList({ page: { limit: 501 } }), 'INVALID_PARAMS');
  });

  test('an unknown filter field, operator or ordering is refused', async () => {
    await rejectsWithApiError(
      client.uploads.list({ filter: { fields: { colour: { eq: 'red' } } } }),
      'INVALID_FILTER_FIELDS_PARAM',
    );
    await rejectsWithApiError(
      client.uploads.list({ filter: { fields: { size: { near: 3 } } } }),
      'INVALID_FILTER_FIELDS_PARAM',
    );
    await rejectsWithApiError(client.uploads.list({ order_by: 'colour_ASC' }), 'INVALID_ORDERING');
  });

  test('an unknown upload is NOT_FOUND', async () => {
    await rejectsWithApiError(client.uploads.find('Xn0tAnUpload0000000000'), 'NOT_FOUND');
  });
});

describe('an upload is one change', () => {
  test('its create event is written with it, for webhooks', async () => {
    const upload = await client.uploads.createFromLocalFile({
      localPath: localFile('event.txt', 'event'),
    });
    const event = await server.db
      .selectFrom('events')
      .select(['entity_type', 'event_type', 'entity'])
      .where('entity_id', '=', upload.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([event.entity_type, event.event_type], ['upload', 'create']);
    assert.equal((event.entity as { attributes: { md5: string } }).attributes.md5, upload.md5);
  });
});

describe('role permissions on uploads', () => {
  const uploadEntry = (action: string, extra: Record<string, unknown> = {}) => ({
    action,
    environment: 'main',
    on_creator: 'anyone',
    localization_scope: 'all',
    ...extra,
  });

  test('creating needs the create action; reading needs read; negative entries win', async () => {
    await server.ready();
    const readOnly = await tokenWithRole(server.db, {
      positive_upload_permissions: [uploadEntry('read')],
    });
    const reader = buildClient({
      apiToken: readOnly.token,
      baseUrl: server.baseUrl,
      autoRetry: false,
    });
    await rejectsWithApiError(
      reader.uploadRequest.create({ filename: 'x.txt' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.ok(Array.isArray(await reader.uploads.list()));

    const denied = await tokenWithRole(server.db, {
      positive_upload_permissions: [uploadEntry('all')],
      negative_upload_permissions: [uploadEntry('create')],
    });
    const deniedClient = buildClient({
      apiToken: denied.token,
      baseUrl: server.baseUrl,
      autoRetry: false,
    });
    await rejectsWithApiError(
      deniedClient.uploads.createFromLocalFile({ localPath: localFile('no.txt', 'no') }),
      'INSUFFICIENT_PERMISSIONS',
    );

    const own = await tokenWithRole(server.db, {
      positive_upload_permissions: [uploadEntry('all', { on_creator: 'self' })],
    });
    const ownClient = buildClient({
      apiToken: own.token,
      baseUrl: server.baseUrl,
      autoRetry: false,
    });
    const mine = await ownClient.uploads.createFromLocalFile({
      localPath: localFile('mine.txt', 'mine'),
    });
    const visible = await ownClient.uploads.list();
    assert.deepEqual(
      visible.map((u) => u.id),
      [mine.id],
    );
    const others = await client.uploads.list({
      filter: { fields: { filename: { eq: 'event.txt' } } },
    });
    if (others[0]) {
      await rejectsWithApiError(ownClient.uploads.find(others[0].id), 'INSUFFICIENT_PERMISSIONS');
    }
  });
});

describe('with async jobs on', () => {
  const asyncServer = useTestServer({ asyncJobs: true });
  test('the create answers a job the client polls, whose result is the upload', async () => {
    const upload = await asyncServer.client().uploads.createFromLocalFile({
      localPath: localFile('polled.txt', 'polled'),
    });
    assert.equal(upload.filename, 'polled.txt');
    assert.equal(upload.size, 6);
  });
});
