import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { LocalStorage } from '../../src/storage/local-storage.ts';
import { S3Storage } from '../../src/storage/s3-storage.ts';
import { type Storage, TooLarge } from '../../src/storage/storage.ts';
import { startTestS3, type TestS3 } from '../support/s3-server.ts';

/** A body that sends `chunks` and then fails, as a client whose connection drops does. */
function interrupted(...chunks: string[]): Readable {
  return new Readable({
    read() {
      const next = chunks.shift();
      if (next !== undefined) this.push(next);
      else this.destroy(new Error('connection reset'));
    },
  });
}

/** A large body made lazily, so the test itself never holds it whole. */
function zeros(bytes: number, chunk = 64 * 1024): Readable {
  let left = bytes;
  return new Readable({
    read() {
      const size = Math.min(chunk, left);
      left -= size;
      this.push(size === 0 ? null : Buffer.alloc(size));
    },
  });
}

function storageContract(name: string, open: () => Storage, leftovers: () => string[]) {
  describe(name, () => {
    test('stores a streamed body and reads it back, whole or by range', async () => {
      const storage = open();
      const { size } = await storage.put(
        '1/100-hello.txt',
        Readable.from(['hello ', 'world']),
        1000,
      );
      assert.equal(size, 11);
      assert.deepEqual(await storage.head('1/100-hello.txt'), { size: 11 });
      assert.equal(await text(await storage.read('1/100-hello.txt')), 'hello world');
      assert.equal(
        await text(await storage.read('1/100-hello.txt', { start: 6, end: 10 })),
        'world',
      );
      const seen = await storage.withFile('1/100-hello.txt', async (path) => path.length > 0);
      assert.equal(seen, true);
    });

    test('a body over the limit is refused and leaves nothing, nor replaces what was there', async () => {
      const storage = open();
      await storage.put('1/200-kept.bin', Readable.from(['old']), 1000);
      await assert.rejects(storage.put('1/200-kept.bin', zeros(20_000), 10_000), TooLarge);
      await assert.rejects(storage.put('1/201-new.bin', zeros(20_000), 10_000), TooLarge);
      assert.equal(await text(await storage.read('1/200-kept.bin')), 'old');
      assert.equal(await storage.head('1/201-new.bin'), null);
      assert.deepEqual(leftovers(), []);
    });

    test('an interrupted body leaves nothing behind', async () => {
      const storage = open();
      await assert.rejects(storage.put('1/300-cut.bin', interrupted('abc', 'def'), 1000), /reset/);
      assert.equal(await storage.head('1/300-cut.bin'), null);
      assert.deepEqual(leftovers(), []);
    });

    test('delete removes the object; deleting a missing one is fine', async () => {
      const storage = open();
      await storage.put('1/400-gone.txt', Readable.from(['x']), 10);
      await storage.delete('1/400-gone.txt');
      await storage.delete('1/400-gone.txt');
      assert.equal(await storage.head('1/400-gone.txt'), null);
    });

    test('keys that could leave the store are refused', async () => {
      const storage = open();
      await assert.rejects(storage.put('../escape', Readable.from(['x']), 10), /unsafe/);
      await assert.rejects(storage.head('1/../../etc/passwd'), /unsafe/);
    });
  });
}

const localRoot = mkdtempSync(join(tmpdir(), 'fieldhouse-storage-'));
after(() => rmSync(localRoot, { recursive: true, force: true }));

/** Partial files a failed write might have left under the local root. */
function localPartials(): string[] {
  return readdirSync(localRoot, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.includes('.partial-'),
  );
}

storageContract('local disk', () => new LocalStorage(localRoot), localPartials);

let s3: TestS3;
before(async () => {
  s3 = await startTestS3();
});
after(async () => {
  await s3.close();
});

storageContract(
  'S3-compatible',
  () => new S3Storage(s3.config),
  () => [],
);

test('S3 direct upload: a presigned URL takes a PUT with no Authorization header', async () => {
  const storage = new S3Storage(s3.config);
  const url = await storage.directUploadUrl('1/500-direct.txt', 60);
  assert.ok(url);
  const response = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain' },
    body: 'direct bytes',
  });
  assert.equal(response.status, 200);
  assert.equal(await text(await storage.read('1/500-direct.txt')), 'direct bytes');
  assert.equal(
    await new S3Storage({ ...s3.config, directUpload: false }).directUploadUrl('k', 60),
    null,
  );
});
