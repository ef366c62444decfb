import { createHash } from 'node:crypto';
import type { RecordsVersion } from './record-cache.ts';

// Asks remembered at once, all environments together: past it the oldest is forgotten.
const REMEMBERED = 1_000;

/**
 * Which reads were asked before at the same version. A list page is kept only when asked
 * a second time: a page asked once (every page, under a stream of writes) then costs
 * nothing to keep — no freezing, no documents made to be shared, nothing held past its
 * request for the garbage collector to promote and later sweep. Keys are remembered by
 * digest (a query string may take the request line's 16 KiB), bounded in number.
 */
export class SecondAsks {
  // Digest of environment and key → the version it was last asked at, oldest first.
  private readonly asked = new Map<string, string>();

  constructor(private readonly limit = REMEMBERED) {}

  /** Whether `key` was asked before at this version; remembers this ask. */
  askedBefore(at: RecordsVersion, key: string): boolean {
    const digest = createHash('sha256').update(`${at.environmentNumber}:${key}`).digest('base64');
    const before = this.asked.get(digest) === at.version;
    this.asked.delete(digest);
    this.asked.set(digest, at.version);
    if (this.asked.size > this.limit) {
      const oldest = this.asked.keys().next().value;
      if (oldest !== undefined) this.asked.delete(oldest);
    }
    return before;
  }

  get size(): number {
    return this.asked.size;
  }
}
