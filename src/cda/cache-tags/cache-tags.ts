import { createHash } from 'node:crypto';

/**
 * Cache tags: what a delivery response depended on, so a CDN can purge it when that
 * changes. A tag is an opaque 8-character base32 digest of a key, so tags never show
 * record or upload ids; the same keys name what a change invalidates (the
 * `cda_cache_tags` webhook events), so both sides agree without sharing state.
 *
 * Keys: `rec:<env>:<mode>:<id>` a record read (its blocks count for it),
 * `col:<env>:<mode>:<model id>` a collection, count, filtered single or inverse list,
 * `upl:<env>:<id>` an upload read, `uplcol:<env>` an upload collection or count, and
 * `site:<env>` on every response (site settings, schema): `<mode>` is `p` (published) or
 * `d` (drafts).
 */

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** The first 40 bits of the key's SHA-256, in base32: 8 characters. */
export function cacheTag(key: string): string {
  const digest = createHash('sha256').update(key).digest();
  let bits = 0;
  let value = 0;
  let tag = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && tag.length < 8) {
      tag += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    if (tag.length === 8) break;
  }
  return tag;
}

type Mode = 'p' | 'd';
export const modeOf = (drafts: boolean): Mode => (drafts ? 'd' : 'p');

export const cacheKeys = {
  record: (env: string, mode: Mode, id: string) => `rec:${env}:${mode}:${id}`,
  collection: (env: string, mode: Mode, modelId: string) => `col:${env}:${mode}:${modelId}`,
  upload: (env: string, id: string) => `upl:${env}:${id}`,
  uploads: (env: string) => `uplcol:${env}`,
  site: (env: string) => `site:${env}`,
};

/** The keys one request read, collected while it runs when `X-Cache-Tags: true` asks. */
export class CacheTagCollector {
  readonly #keys = new Set<string>();

  constructor(
    private readonly environment: string,
    private readonly mode: Mode,
  ) {
    this.#keys.add(cacheKeys.site(environment));
  }

  records(ids: Iterable<string>): void {
    for (const id of ids) this.#keys.add(cacheKeys.record(this.environment, this.mode, id));
  }

  collection(modelId: string): void {
    this.#keys.add(cacheKeys.collection(this.environment, this.mode, modelId));
  }

  uploads(ids: Iterable<string>): void {
    for (const id of ids) this.#keys.add(cacheKeys.upload(this.environment, id));
  }

  uploadCollection(): void {
    this.#keys.add(cacheKeys.uploads(this.environment));
  }

  /** The `X-Cache-Tags` header value: the tags, space separated, sorted. */
  header(): string {
    return [...new Set([...this.#keys].map(cacheTag))].sort().join(' ');
  }
}
