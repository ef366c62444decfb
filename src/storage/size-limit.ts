import { Transform } from 'node:stream';
import { TooLarge } from './storage.ts';

/**
 * Passes bytes through, counting them, and fails the stream with TooLarge as soon as
 * more than `maxBytes` went by: a client that lies about (or omits) Content-Length is
 * stopped at the limit, not at the end of its body.
 */
export function sizeLimit(maxBytes: number): Transform & { readonly bytes: number } {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(new TooLarge(maxBytes));
      else callback(null, chunk);
    },
  });
  return Object.defineProperty(counter, 'bytes', { get: () => bytes }) as Transform & {
    readonly bytes: number;
  };
}
