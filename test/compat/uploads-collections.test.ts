import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildClient } from '@datocms/cma-client-node';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { localFile, solidImage } from '../support/images.ts';
import { tokenWithRole } from '../support/limited-token.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

const ref = (id: string) => ({ type: 'upload_collection' as const, id });

describe('upload collections', () => {
  test('a tree: parents, positions among siblings, children in order', async () => {
    const photos = await client.uploadCollections.create({ label: 'Photos' });
    const docs = await client.uploadCollections.create({ label: 'Docs' });
    const first = await client.uploadCollections.create({
      id: 'aYqKxFzTQbmMbsEJtW2PQA',
      label: 'Summer',
      parent: ref(photos.id),
    });
    const front = await client.uploadCollections.create({
      label: 'Winter',
      parent: ref(photos.id),
      position: 1,
    });
    assert.equal(first.id, 'aYqKxFzTQbmMbsEJtW2PQA');
    assert.deepEqual([photos.position, docs.position], [1, 2]);
    const parent = await client.uploadCollections.find(photos.id);
    assert.deepEqual(
      parent.children.map((child) => child.id),
      [front.id, first.id],
    );
    assert.deepEqual((await client.uploadCollections.find(first.id)).position, 2);
    assert.deepEqual((await client.uploadCollections.find(front.id)).parent, ref(photos.id));

    const listed = await client.uploadCollections.list();
    assert.deepEqual(
      listed.filter((c) => c.parent === null).map((c) => c.label),
      ['Photos', 'Docs'],
    );
    const some = await client.uploadCollections.list({ filter: { ids: `${docs.id},${first.id}` } });
    assert.deepEqual(some.map((c) => c.id).sort(), [docs.id, first.id].sort());
  });

  test('update: a rename, a move; the fetched object spread back changes nothing; cycles are refused', async () => {
    const root = await client.uploadCollections.create({ label: 'Root' });
    const child = await client.uploadCollections.create({ label: 'Child', parent: ref(root.id) });
    const fetched = await client.uploadCollections.find(root.id);
    const same = await client.uploadCollections.update(root.id, { ...fetched, label: 'Root 2' });
    assert.deepEqual(same, { ...fetched, label: 'Root 2' });

    await rejectsWithApiError(
      client.uploadCollections.update(root.id, { parent: ref(child.id) }),
      'INVALID_FIELD',
      { field: 'parent' },
    );
    await rejectsWithApiError(
      client.uploadCollections.update(child.id, { parent: ref('Xn0tAColl0000000000000') }),
      'INVALID_FIELD',
      { field: 'parent' },
    );
    await rejectsWithApiError(
      client.uploadCollections.update(root.id, { label: '   ' }),
      'INVALID_FIELD',
      { field: 'label' },
    );
    const moved = await client.uploadCollections.update(child.id, { parent: null });
    assert.equal(moved.parent, null);
    assert.deepEqual((await client.uploadCollections.find(root.id)).children, []);
    const adopted = await client.uploadCollections.update(root.id, { children: [ref(child.id)] });
    assert.deepEqual(adopted.children, [ref(child.id)]);
  });

  test('reorder moves several at once and answers them', async () => {
    const a = await client.uploadCollections.create({ label: 'A' });
    const b = await client.uploadCollections.create({ label: 'B', parent: ref(a.id) });
    const c = await client.uploadCollections.create({ label: 'C', parent: ref(a.id) });
    const reordered = await client.uploadCollections.reorder([
      { id: c.id, type: 'upload_collection', position: 1, parent: ref(a.id) },
      { id: b.id, type: 'upload_collection', position: 1, parent: null },
    ]);
    assert.deepEqual(
      reordered.map((collection) => [collection.id, collection.position]),
      [
        [c.id, 1],
        [b.id, 1],
      ],
    );
    assert.deepEqual((await client.uploadCollections.find(a.id)).children, [ref(c.id)]);
    await rejectsWithApiError(
      client.uploadCollections.reorder([
        { id: a.id, type: 'upload_collection', position: 1, parent: ref(c.id) },
      ]),
      'INVALID_FIELD',
      { field: 'parent' },
    );
  });

  test('destroy: children move up to its parent, its uploads are left in no collection', async () => {
    const top = await client.uploadCollections.create({ label: 'Top' });
    const middle = await client.uploadCollections.create({ label: 'Middle', parent: ref(top.id) });
    const leaf = await client.uploadCollections.create({ label: 'Leaf', parent: ref(middle.id) });
    const upload = await client.uploads.createFromLocalFile({
      localPath: localFile('in-middle.txt', 'in the middle'),
      upload_collection: ref(middle.id),
    });
    assert.deepEqual(upload.upload_collection, ref(middle.id));
    const inMiddle = await client.uploads.list({
      filter: { fields: { filename: { eq: 'in-middle.txt' } } },
    });
    assert.equal(inMiddle.length, 1);

    const destroyed = await client.uploadCollections.destroy(middle.id);
    assert.deepEqual(destroyed.children, [ref(leaf.id)]);
    await rejectsWithApiError(client.uploadCollections.find(middle.id), 'NOT_FOUND');
    assert.deepEqual((await client.uploadCollections.find(leaf.id)).parent, ref(top.id));
    assert.equal((await client.uploads.find(upload.id)).upload_collection, null);
  });

  test('an upload request or upload naming an unknown collection is refused', async () => {
    await rejectsWithApiError(
      client.uploadRequest.create({
        filename: 'x.txt',
        upload_collection: ref('Xn0tAColl0000000000000'),
      } as never),
      'INVALID_RELATIONSHIP',
    );
  });
});

describe('listing uploads by collection', () => {
  test('filter[fields][upload_collection]: eq, in, neq, exists; the collection directly holding it', async () => {
    const shelf = await client.uploadCollections.create({ label: 'Shelf' });
    const box = await client.uploadCollections.create({ label: 'Box', parent: ref(shelf.id) });
    const upload = (name: string, collection: string | null) =>
      client.uploads.createFromLocalFile({
        localPath: localFile(name, name),
        upload_collection: collection === null ? null : ref(collection),
      });
    const onShelf = await upload('on-shelf.txt', shelf.id);
    const inBox = await upload('in-box.txt', box.id);
    const loose = await upload('loose.txt', null);
    const ids = async (fields: Record<string, unknown>) =>
      (await client.uploads.list({ filter: { fields } })).map((u) => u.id).sort();
    const mine = [onShelf.id, inBox.id, loose.id];
    const only = (listed: string[]) => listed.filter((id) => mine.includes(id));

    assert.deepEqual(await ids({ upload_collection: { eq: shelf.id } }), [onShelf.id]);
    assert.deepEqual(
      await ids({ upload_collection: { in: [shelf.id, box.id] } }),
      [onShelf.id, inBox.id].sort(),
    );
    assert.deepEqual(
      only(await ids({ upload_collection: { neq: shelf.id } })),
      [inBox.id, loose.id].sort(),
    );
    assert.deepEqual(only(await ids({ upload_collection: { exists: false } })), [loose.id]);
    assert.deepEqual(
      await ids({ upload_collection: { notIn: [shelf.id] }, filename: { eq: 'in-box.txt' } }),
      [inBox.id],
    );
    const page = await client.uploads.rawList({
      filter: { fields: { upload_collection: { eq: box.id } } },
    });
    assert.equal(page.meta.total_count, 1);
  });

  test('an operator that makes no sense for an id is refused', async () => {
    await rejectsWithApiError(
      client.uploads.list({
        filter: { fields: { upload_collection: { matches: { pattern: 'x' } } } },
      }),
      'INVALID_FILTER_FIELDS_PARAM',
    );
    await rejectsWithApiError(
      client.uploads.list({ filter: { fields: { upload_collection: { gt: 'a' } } } }),
      'INVALID_FILTER_FIELDS_PARAM',
    );
  });
});

describe('collections and permissions', () => {
  test('managing collections needs can_manage_upload_collections; reading needs nothing more', async () => {
    await server.ready();
    const { token } = await tokenWithRole(server.db, {});
    const plain = buildClient({ apiToken: token, baseUrl: server.baseUrl, autoRetry: false });
    await rejectsWithApiError(
      plain.uploadCollections.create({ label: 'No' }),
      'INSUFFICIENT_PERMISSIONS',
    );
    assert.ok(Array.isArray(await plain.uploadCollections.list()));
  });

  test('an entry naming a collection covers the uploads of the collections inside it', async () => {
    await server.ready();
    const brand = await client.uploadCollections.create({ label: 'Brand' });
    const logos = await client.uploadCollections.create({ label: 'Logos', parent: ref(brand.id) });
    const other = await client.uploadCollections.create({ label: 'Other' });
    const scoped = await tokenWithRole(server.db, {
      positive_upload_permissions: [
        {
          action: 'all',
          environment: 'main',
          on_creator: 'anyone',
          upload_collection: brand.id,
          localization_scope: 'all',
        },
      ],
    });
    const scopedClient = buildClient({
      apiToken: scoped.token,
      baseUrl: server.baseUrl,
      autoRetry: false,
    });
    const image = localFile('logo.png', await solidImage(8, 8, { r: 1, g: 2, b: 3 }));
    const logo = await scopedClient.uploads.createFromLocalFile({
      localPath: image,
      upload_collection: ref(logos.id),
    });
    assert.equal((await scopedClient.uploads.update(logo.id, { notes: 'ok' })).notes, 'ok');
    await rejectsWithApiError(
      scopedClient.uploads.update(logo.id, { upload_collection: ref(other.id) }),
      'INSUFFICIENT_PERMISSIONS',
    );
    await rejectsWithApiError(
      scopedClient.uploads.createFromLocalFile({
        localPath: image,
        upload_collection: ref(other.id),
      }),
      'INSUFFICIENT_PERMISSIONS',
    );
  });
});

describe('forks', () => {
  test('a fork copies collections with their ids and tree', async () => {
    const parent = await client.uploadCollections.create({ label: 'Forked parent' });
    const child = await client.uploadCollections.create({
      label: 'Forked child',
      parent: ref(parent.id),
    });
    await client.environments.fork('main', { id: 'collections-fork' });
    const forked = server.client({ environment: 'collections-fork' });
    assert.deepEqual(
      await forked.uploadCollections.find(child.id),
      await client.uploadCollections.find(child.id),
    );
    assert.deepEqual(
      await forked.uploadCollections.find(parent.id),
      await client.uploadCollections.find(parent.id),
    );
    await client.environments.destroy('collections-fork');
  });
});
