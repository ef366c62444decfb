import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStorage } from '../../src/storage/open-storage.ts';
import { rejectsWithApiError } from './api-errors.ts';
import { localFile } from './images.ts';
import type { SuiteServer } from './server.ts';

/** Whether the server's storage holds bytes at an upload path. */
async function stored(server: SuiteServer, path: string): Promise<boolean> {
  return (await openStorage(server.config.storage).head(path.slice(1))) !== null;
}

/** Waits for the worker's sweep (every few ms in these servers) to delete the bytes. */
async function sweptAway(server: SuiteServer, path: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (!(await stored(server, path))) return;
    await sleep(50);
  }
  assert.fail(`the bytes of ${path} were never deleted`);
}

/**
 * Bytes no upload names any more are deleted by the worker's sweep, whatever the
 * storage, and never while an environment still names them. `server` must sweep often.
 */
export function uploadBytesTests(server: SuiteServer): void {
  const client = server.client();

  test('replacing a file deletes the old bytes once nothing names them; the new ones stay', async () => {
    const upload = await client.uploads.createFromLocalFile({
      localPath: localFile('v1.txt', 'version one'),
    });
    assert.ok(await stored(server, upload.path));
    const replaced = await client.uploads.updateFromLocalFile(upload.id, {
      localPath: localFile('v2.txt', 'version two'),
    });
    await sweptAway(server, upload.path);
    assert.ok(await stored(server, replaced.path));
    const response = await client.uploads.find(upload.id);
    assert.equal(response.md5, replaced.md5);
  });

  test('a destroyed upload’s bytes stay while a fork names them, and go when none does', async () => {
    const shared = await client.uploads.createFromLocalFile({
      localPath: localFile('shared.txt', 'shared between environments'),
    });
    const fork = `bytes-fork-${Date.now()}`;
    await client.environments.fork('main', { id: fork });
    // Made after the fork: only main names it.
    const alone = await client.uploads.createFromLocalFile({
      localPath: localFile('alone.txt', 'named by main only'),
    });
    await client.uploads.bulkDestroy({
      uploads: [
        { type: 'upload', id: shared.id },
        { type: 'upload', id: alone.id },
      ],
    });
    // The sweep that deletes the lone upload's bytes has passed over the shared path too.
    await sweptAway(server, alone.path);
    assert.ok(await stored(server, shared.path), 'the fork still names these bytes');
    const forked = server.client({ environment: fork });
    assert.equal((await forked.uploads.find(shared.id)).path, shared.path);
    await forked.uploads.destroy(shared.id);
    await sweptAway(server, shared.path);
    await client.environments.destroy(fork);
  });

  test('destroying an environment releases the bytes only it named', async () => {
    const fork = `bytes-env-${Date.now()}`;
    await client.environments.fork('main', { id: fork });
    const forked = server.client({ environment: fork });
    const only = await forked.uploads.createFromLocalFile({
      localPath: localFile('fork-only.txt', 'only in the fork'),
    });
    await client.environments.destroy(fork);
    await sweptAway(server, only.path);
  });

  test('the bytes of an upload request never used go a day after its URL expired', async () => {
    const request = await client.uploadRequest.create({ filename: 'never-used.txt' });
    assert.equal((await fetch(request.url, { method: 'PUT', body: 'never used' })).status, 200);
    assert.ok(await stored(server, request.id));
    await server.db
      .updateTable('upload_requests')
      .set({ expires_at: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where('path', '=', request.id)
      .execute();
    await sweptAway(server, request.id);
    await rejectsWithApiError(client.uploads.create({ path: request.id }), 'INVALID_FIELD', {
      field: 'path',
    });
  });
}
