import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sizeLimit } from './size-limit.ts';
import { assertSafeKey, type Storage } from './storage.ts';

/**
 * Objects as files under one directory. A write goes to `<file>.partial-<random>`, is
 * flushed to disk and renamed over the file: readers never see half a file, and a failed
 * or interrupted write is removed, leaving what was there before.
 */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    assertSafeKey(key);
    return join(this.root, key);
  }

  async put(key: string, body: Readable, maxBytes: number): Promise<{ size: number }> {
    const file = this.file(key);
    await mkdir(dirname(file), { recursive: true });
    const partial = `${file}.partial-${randomBytes(6).toString('hex')}`;
    const limit = sizeLimit(maxBytes);
    // The file is opened here, not by the write stream: a stream destroyed by an early
    // error may still finish opening (and create the file) after the cleanup below ran.
    const handle = await open(partial, 'wx');
    try {
      // The stream closes the handle when it ends or is destroyed.
      await pipeline(body, limit, handle.createWriteStream());
      await flush(partial);
      await rename(partial, file);
      return { size: limit.bytes };
    } catch (error) {
      // Usually closed by the stream already; a second close only fails, harmlessly.
      await handle.close().catch(() => {});
      await rm(partial, { force: true });
      throw error;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.file(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const stream = createReadStream(this.file(key), range);
    // Surfaces a missing file here rather than as a stream error mid-response.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async withFile<T>(key: string, work: (path: string) => Promise<T>): Promise<T> {
    return work(this.file(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async directUploadUrl(): Promise<null> {
    return null;
  }
}

async function flush(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
