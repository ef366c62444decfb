import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rejectsWithApiError } from '../support/api-errors.ts';
import { localFile, solidImage } from '../support/images.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

test('upload tags: made ones and those uploads carry, filtered and paged; a tag id is its name', async () => {
  const made = await client.uploadTags.create({ name: 'Campaign 2026' });
  assert.deepEqual(made, { id: 'Campaign 2026', type: 'upload_tag', name: 'Campaign 2026' });
  const again = await client.uploadTags.create({ name: 'Campaign 2026' });
  assert.deepEqual(again, made);
  const upload = await client.uploads.createFromLocalFile({
    localPath: localFile('tagged.txt', 'tagged'),
    tags: ['hero', 'campaign-old'],
  });
  const tagged = await client.uploads.update(upload.id, { tags: [made.id, 'hero'] });
  assert.deepEqual(tagged.tags, ['Campaign 2026', 'hero']);

  const all = await client.uploadTags.rawList();
  assert.deepEqual(
    all.data.map((tag) => tag.id),
    ['Campaign 2026', 'hero'],
  );
  assert.equal(all.meta.total_count, 2);
  const found = await client.uploadTags.rawList({ filter: { query: 'CAMP' } });
  assert.deepEqual(
    found.data.map((tag) => tag.attributes.name),
    ['Campaign 2026'],
  );
  const page = await client.uploadTags.rawList({ page: { offset: 1, limit: 1 } });
  assert.deepEqual([page.data.map((tag) => tag.id), page.meta.total_count], [['hero'], 2]);
  const past = await client.uploadTags.rawList({ page: { offset: 10 } });
  assert.deepEqual([past.data, past.meta.total_count], [[], 2]);
  await rejectsWithApiError(client.uploadTags.rawList({ page: { limit: 501 } }), 'INVALID_PARAMS');
  await rejectsWithApiError(client.uploadTags.create({ name: '   ' }), 'INVALID_FIELD', {
    field: 'name',
  });
});

test('smart tags: the colour words the uploads carry', async () => {
  await client.uploads.createFromLocalFile({
    localPath: localFile('red.png', await solidImage(8, 8, { r: 240, g: 10, b: 10 })),
  });
  await client.uploads.createFromLocalFile({
    localPath: localFile('grey.png', await solidImage(8, 8, { r: 128, g: 128, b: 128 })),
  });
  const smart = await client.uploadSmartTags.rawList();
  assert.deepEqual(
    smart.data.map((tag) => [tag.type, tag.id]),
    [
      ['upload_smart_tag', 'gray'],
      ['upload_smart_tag', 'red'],
    ],
  );
  const filtered = await client.uploadSmartTags.list({ filter: { query: 're' } });
  assert.deepEqual(
    filtered.map((tag) => tag.name),
    ['red'],
  );
});
