import type { Readable } from 'node:stream';

/**
 * Where upload bytes live, by key (an upload's path without its leading `/`). Writes are
 * streamed, never held whole in memory, and all-or-nothing: a write that fails or passes
 * `maxBytes` leaves no object behind (nor replaces the one already there).
 */
export interface Storage {
  /** Streams `body` into `key`; rejects with TooLarge past `maxBytes`. */
  put(key: string, body: Readable, maxBytes: number): Promise<{ size: number }>;
  /** The object's size, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /** The object's bytes, or a part of them (`end` inclusive, as in HTTP ranges). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * Runs `work` on a file holding the object's bytes (the object itself on local disk, a
   * temporary copy removed afterwards otherwise): libraries that seek (sharp, exifr) read it.
   */
  withFile<T>(key: string, work: (path: string) => Promise<T>): Promise<T>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * A URL a client may PUT the object's bytes to with no other credential, valid for
   * `ttlSeconds`; null when clients upload through Fieldhouse instead.
   */
  directUploadUrl(key: string, ttlSeconds: number): Promise<string | null>;
}

/** A write passed its size limit: nothing was stored. */
export class TooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
  }
}

/** Keys are made by Fieldhouse (site/ms-name); anything else is refused before it reaches a driver. */
export function assertSafeKey(key: string): void {
  if (
    !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) ||
    key.split('/').some((p) => /^\.+$/.test(p))
  ) {
    throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
  }
}
