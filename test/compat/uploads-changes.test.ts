import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildClient } from '@datocms/cma-client-node';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { localFile, md5, solidImage } from '../support/images.ts';
import { tokenWithRole } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

let fileCount = 0;
async function anUpload(extra: Record<string, unknown> = {}) {
  fileCount += 1;
  return client.uploads.createFromLocalFile({
    localPath: localFile(`file-${fileCount}.txt`, `bytes ${fileCount}`),
    ...extra,
  });
}

async function eventsOf(id: string) {
  return server.db
    .selectFrom('events')
    .select(['event_type', 'entity', 'previous_entity'])
    .where('entity_type', '=', 'upload')
    .where('entity_id', '=', id)
    .orderBy('id')
    .execute();
}

type Presented = { attributes: Record<string, unknown> };

function limitedClient(token: string) {
  return buildClient({ apiToken: token, baseUrl: server.baseUrl, autoRetry: false });
}

const entry = (action: string, extra: Record<string, unknown> = {}) => ({
  action,
  environment: 'main',
  on_creator: 'anyone',
  localization_scope: 'all',
  ...extra,
});

describe('updating an upload', () => {
  test('metadata: default_field_metadata is a patch, tags replace, texts set; one update event', async () => {
    const upload = await anUpload({
      author: 'Ada',
      tags: ['one', 'two'],
      default_field_metadata: { alt: { en: 'An alt' }, title: { en: 'A title' } },
    });
    const updated = await client.uploads.update(upload.id, {
      notes: 'Some notes',
      copyright: '2026 Fieldhouse',
      tags: ['three', ' three ', 'one'],
      default_field_metadata: { title: { en: 'New title' }, focal_point: { x: 0.25, y: 0.75 } },
    });
    assert.equal(updated.author, 'Ada');
    assert.equal(updated.notes, 'Some notes');
    assert.equal(updated.copyright, '2026 Fieldhouse');
    assert.deepEqual(updated.tags, ['three', 'one']);
    assert.equal(updated.default_field_metadata.alt.en, 'An alt');
    assert.equal(updated.default_field_metadata.title.en, 'New title');
    assert.deepEqual(updated.default_field_metadata.focal_point, { x: 0.25, y: 0.75 });
    assert.equal(updated.path, upload.path);
    assert.ok(String(updated.updated_at) >= String(upload.updated_at));
    assert.deepEqual(await client.uploads.find(upload.id), updated);

    const events = await eventsOf(upload.id);
    assert.deepEqual(
      events.map((event) => event.event_type),
      ['create', 'update'],
    );
    const update = events[1];
    assert.ok(update);
    assert.equal((update.entity as Presented).attributes.notes, 'Some notes');
    assert.equal((update.previous_entity as Presented).attributes.notes, null);
  });

  test('the legacy locale-keyed metadata shape is accepted too', async () => {
    const upload = await anUpload();
    const updated = await client.uploads.update(upload.id, {
      default_field_metadata: {
        en: { alt: 'Legacy alt', title: null, custom_data: { k: 'v' }, focal_point: null },
      } as never,
    });
    assert.equal(updated.default_field_metadata.alt.en, 'Legacy alt');
    assert.deepEqual(updated.default_field_metadata.custom_data.en, { k: 'v' });
  });

  test('bad values are refused and change nothing', async () => {
    const upload = await anUpload({ notes: 'kept' });
    await rejectsWithApiError(
      client.uploads.update(upload.id, {
        notes: 'lost',
        default_field_metadata: { focal_point: { x: 2, y: 0 } },
      }),
      'INVALID_FIELD',
      { field: 'default_field_metadata' },
    );
    await rejectsWithApiError(
      client.uploads.update(upload.id, {
        notes: 'lost',
        upload_collection: { type: 'upload_collection', id: 'Xn0tAColl0000000000000' },
      }),
      'INVALID_RELATIONSHIP',
    );
    await rejectsWithApiError(
      client.uploads.update(upload.id, { path: '/1/123-never-requested.txt' }),
      'INVALID_FIELD',
      { field: 'path' },
    );
    await rejectsWithApiError(
      client.uploads.update(upload.id, { basename: 'renamed' }),
      'INVALID_FIELD',
      { field: 'basename' },
    );
    assert.equal(
      (await client.uploads.update(upload.id, { basename: upload.basename })).id,
      upload.id,
    );
    assert.equal((await client.uploads.find(upload.id)).notes, 'kept');
    await rejectsWithApiError(
      client.uploads.update('Xn0tAnUpload0000000000', { notes: 'x' }),
      'NOT_FOUND',
    );
  });

  test('the creator may be changed to another token', async () => {
    await server.ready();
    const other = await tokenWithRole(server.db, {
      positive_upload_permissions: [entry('all')],
    });
    const upload = await anUpload();
    const updated = await client.uploads.update(upload.id, {
      creator: { type: 'access_token', id: other.tokenId },
    });
    assert.deepEqual(updated.creator, { type: 'access_token', id: other.tokenId });
    await rejectsWithApiError(
      client.uploads.update(upload.id, { creator: { type: 'access_token', id: '987654' } }),
      'INVALID_RELATIONSHIP',
    );
  });
});

describe('replacing the file', () => {
  test('updateFromLocalFile: the new bytes are analysed, the upload takes the new path, user metadata stays', async () => {
    const original = await client.uploads.createFromLocalFile({
      localPath: localFile('before.png', await solidImage(20, 10, { r: 250, g: 0, b: 0 })),
      author: 'Ada',
      default_field_metadata: { alt: { en: 'kept alt' } },
    });
    const replacement = localFile('after.png', await solidImage(30, 40, { r: 0, g: 0, b: 250 }));
    const replaced = await client.uploads.updateFromLocalFile(original.id, {
      localPath: replacement,
      notes: 'second version',
    });
    assert.equal(replaced.id, original.id);
    assert.notEqual(replaced.path, original.path);
    assert.match(replaced.path, /-after\.png$/);
    assert.equal(replaced.filename, 'after.png');
    assert.ok(replaced.url.endsWith(replaced.path));
    assert.deepEqual([replaced.width, replaced.height], [30, 40]);
    assert.equal(replaced.md5, md5(replacement));
    assert.deepEqual(replaced.smart_tags, ['blue']);
    assert.equal(replaced.author, 'Ada');
    assert.equal(replaced.notes, 'second version');
    assert.equal(replaced.default_field_metadata.alt.en, 'kept alt');
    assert.equal(replaced.created_at, original.created_at);

    const counts = await server.db
      .selectFrom('upload_objects')
      .select(['path', 'refs'])
      .where('path', 'in', [original.path, replaced.path])
      .execute();
    const refs = Object.fromEntries(counts.map((row) => [row.path, row.refs]));
    assert.equal(refs[replaced.path], 1);
    assert.ok(!refs[original.path], 'the old path is no longer referenced');
  });

  test('replace_strategy=keep_url is refused with a clear error, and nothing changes', async () => {
    const upload = await anUpload();
    const request = await client.uploadRequest.create({ filename: 'keep.txt' });
    await fetch(request.url, { method: 'PUT', body: 'new bytes' });
    await rejectsWithApiError(
      client.uploads.update(upload.id, { path: request.id }, { replace_strategy: 'keep_url' }),
      'INVALID_FIELD',
      { field: 'path' },
    );
    assert.equal((await client.uploads.find(upload.id)).path, upload.path);
    // The path was not used: a create may still take it.
    const created = await client.uploads.create({ path: request.id });
    assert.equal(created.size, 'new bytes'.length);
  });
});

describe('destroying an upload', () => {
  test('answers the upload as it was, with its delete event; it is gone after', async () => {
    const upload = await anUpload({ notes: 'bye' });
    const destroyed = await client.uploads.destroy(upload.id);
    assert.deepEqual(destroyed, upload);
    await rejectsWithApiError(client.uploads.find(upload.id), 'NOT_FOUND');
    await rejectsWithApiError(client.uploads.destroy(upload.id), 'NOT_FOUND');
    const events = await eventsOf(upload.id);
    assert.deepEqual(
      events.map((event) => event.event_type),
      ['create', 'delete'],
    );
    const deleted = events[1];
    assert.ok(deleted);
    assert.equal((deleted.entity as Presented).attributes.notes, 'bye');
  });
});

describe('bulk operations', () => {
  test('tag adds to each upload’s tags; set-upload-collection moves; destroy removes', async () => {
    const first = await anUpload({ tags: ['a'] });
    const second = await anUpload({ tags: ['b', 'c'] });
    const uploads = [first, second].map((u) => ({ type: 'upload' as const, id: u.id }));
    assert.deepEqual(await client.uploads.bulkTag({ tags: ['c', 'd'], uploads }), []);
    assert.deepEqual((await client.uploads.find(first.id)).tags, ['a', 'c', 'd']);
    assert.deepEqual((await client.uploads.find(second.id)).tags, ['b', 'c', 'd']);
    assert.deepEqual(
      (await eventsOf(first.id)).map((event) => event.event_type),
      ['create', 'update'],
    );

    const collection = await client.uploadCollections.create({ label: 'Bulk' });
    await client.uploads.bulkSetUploadCollection({
      upload_collection: { type: 'upload_collection', id: collection.id },
      uploads,
    });
    const moved = await client.uploads.list({ filter: { ids: `${first.id},${second.id}` } });
    assert.deepEqual(
      moved.map((u) => u.upload_collection?.id),
      [collection.id, collection.id],
    );
    await client.uploads.bulkSetUploadCollection({ upload_collection: null, uploads });
    assert.equal((await client.uploads.find(first.id)).upload_collection, null);

    await client.uploads.bulkDestroy({ uploads });
    const left = await client.uploads.list({ filter: { ids: `${first.id},${second.id}` } });
    assert.deepEqual(left, []);
    assert.deepEqual((await eventsOf(second.id)).map((event) => event.event_type).slice(-1), [
      'delete',
    ]);
  });

  test('all or nothing: an unknown id or an empty list refuses the whole operation', async () => {
    const upload = await anUpload({ tags: ['x'] });
    const uploads = [
      { type: 'upload' as const, id: upload.id },
      { type: 'upload' as const, id: 'Xn0tAnUpload0000000000' },
    ];
    await rejectsWithApiError(
      client.uploads.bulkTag({ tags: ['y'], uploads }),
      'INVALID_RELATIONSHIP',
    );
    await rejectsWithApiError(client.uploads.bulkDestroy({ uploads }), 'INVALID_RELATIONSHIP');
    await rejectsWithApiError(client.uploads.bulkDestroy({ uploads: [] }), 'MISSING_UPLOAD_IDS');
    assert.deepEqual((await client.uploads.find(upload.id)).tags, ['x']);
  });
});

describe('permissions on changes', () => {
  test('each change needs its action; a bulk operation checks every upload first', async () => {
    await server.ready();
    const upload = await anUpload();
    const localizedOnly = limitedClient(
      (
        await tokenWithRole(server.db, {
          positive_upload_permissions: [
            entry('read'),
            entry('update', { localization_scope: 'localized', locale: 'en' }),
          ],
        })
      ).token,
    );
    const altChanged = await localizedOnly.uploads.update(upload.id, {
      default_field_metadata: { alt: { en: 'allowed' } },
    });
    assert.equal(altChanged.default_field_metadata.alt.en, 'allowed');
    await rejectsWithApiError(
      localizedOnly.uploads.update(upload.id, { notes: 'not localized' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      localizedOnly.uploads.update(upload.id, {
        creator: { type: 'access_token', id: upload.creator?.id ?? '' },
        notes: null,
        author: 'changed',
      }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(localizedOnly.uploads.destroy(upload.id), 'INSUFFICIENT_PERMISSIONS');

    const own = await tokenWithRole(server.db, {
      positive_upload_permissions: [entry('all', { on_creator: 'self' })],
    });
    const ownClient = limitedClient(own.token);
    const mine = await ownClient.uploads.createFromLocalFile({
      localPath: localFile('mine-bulk.txt', 'mine'),
    });
    await rejectsWithApiError(
      ownClient.uploads.bulkDestroy({
        uploads: [
          { type: 'upload', id: mine.id },
          { type: 'upload', id: upload.id },
        ],
      }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.equal((await client.uploads.find(mine.id)).id, mine.id, 'nothing was destroyed');
    await ownClient.uploads.destroy(mine.id);
  });
});

describe('with async jobs on', () => {
  const asyncServer = useTestServer({ asyncJobs: true });
  test('update, replace and bulk operations answer jobs the client polls', async () => {
    const asyncClient = asyncServer.client();
    const upload = await asyncClient.uploads.createFromLocalFile({
      localPath: localFile('job.txt', 'job'),
    });
    const updated = await asyncClient.uploads.update(upload.id, { author: 'Job' });
    assert.equal(updated.author, 'Job');
    const replaced = await asyncClient.uploads.updateFromLocalFile(upload.id, {
      localPath: localFile('job-2.txt', 'second job'),
    });
    assert.equal(replaced.size, 'second job'.length);
    await asyncClient.uploads.bulkTag({
      tags: ['t'],
      uploads: [{ type: 'upload', id: upload.id }],
    });
    assert.deepEqual((await asyncClient.uploads.find(upload.id)).tags, ['t']);
  });
});
