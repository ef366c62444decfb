import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localFile } from '../support/images.ts';
import { useTestServer } from '../support/server.ts';

const server = useTestServer();
const client = server.client();

async function references(path: string): Promise<number | undefined> {
  const row = await server.db
    .selectFrom('upload_objects')
    .select('refs')
    .where('path', '=', path)
    .executeTakeFirst();
  return row?.refs;
}

test('a fork shares its uploads’ bytes: each environment holding the path counts once', async () => {
  const upload = await client.uploads.createFromLocalFile({
    localPath: localFile('shared.txt', 'shared bytes'),
  });
  assert.equal(await references(upload.path), 1);
  await client.environments.fork('main', { id: 'upload-fork' });
  const forked = server.client({ environment: 'upload-fork' });
  const copy = await forked.uploads.find(upload.id);
  assert.deepEqual([copy.path, copy.url, copy.md5], [upload.path, upload.url, upload.md5]);
  assert.equal(await references(upload.path), 2);
  await client.environments.destroy('upload-fork');
  assert.equal(await references(upload.path), 1);
});
