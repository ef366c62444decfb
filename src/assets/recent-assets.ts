import type { Asset } from './find-asset.ts';

/** How long a looked-up asset is served without asking the database again. */
export const ASSET_LOOKUP_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

/**
 * Assets looked up in the last few seconds, by path: a page of thumbnails asks for one
 * path many times, and each ask would otherwise cost its database reads (a cached
 * rendition's answer is mostly those). A path names the same bytes until its upload is
 * destroyed or replaced in place, so the only staleness is that for up to
 * ASSET_LOOKUP_TTL_MS after such a change this process still serves what it found (as a
 * CDN in front would, for much longer). Past MAX_ENTRIES paths the map is emptied, never
 * grown. Only found assets are kept: a path that becomes an upload is served at once.
 */
export class RecentAssets {
  private readonly entries = new Map<string, { asset: Asset; until: number }>();

  constructor(private readonly ttlMs = ASSET_LOOKUP_TTL_MS) {}

  async get(path: string, lookUp: () => Promise<Asset | null>): Promise<Asset | null> {
    const now = Date.now();
    const kept = this.entries.get(path);
    if (kept && kept.until > now) return kept.asset;
    const asset = await lookUp();
    if (!asset) {
      this.entries.delete(path);
      return null;
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(path, { asset, until: now + this.ttlMs });
    return asset;
  }
}
