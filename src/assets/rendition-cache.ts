import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const STALE_PARTIAL_MS = 10 * 60_000;

/** A rendition kept on disk. */
export type CachedRendition = Readonly<{ file: string; size: number; modifiedAt: Date }>;

/**
 * Renditions on local disk, `<dir>/<first 2 hex of the key>/<key>.<ext>`, at most
 * `maxBytes` in all as this process counts them: past the cap, the least recently used
 * are deleted. A rendition is written to a `.partial-` file and renamed into place, so
 * a reader (of this process or another sharing the folder) never sees half of one.
 */
export class RenditionCache {
  /** Key → bytes, least recently used first (a Map keeps insertion order). */
  private readonly entries = new Map<string, { file: string; size: number }>();
  private total = 0;
  private readonly scanned: Promise<void>;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {
    // Renditions kept from earlier runs count against the cap, oldest first.
    this.scanned = this.scan().catch(() => undefined);
  }

  /** Total bytes this process counts (tests and metrics). */
  get bytes(): number {
    return this.total;
  }

  private fileOf(key: string, extension: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.${extension}`);
  }

  async find(key: string, extension: string): Promise<CachedRendition | null> {
    const file = this.fileOf(key, extension);
    try {
      const info = await stat(file);
      // An empty file is what a crash between create and write can leave: render again.
      if (!info.isFile() || info.size === 0) return null;
      this.remember(key, file, info.size);
      return { file, size: info.size, modifiedAt: info.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.forget(key);
        return null;
      }
      throw error;
    }
  }

  async store(key: string, extension: string, bytes: Buffer): Promise<CachedRendition> {
    const file = this.fileOf(key, extension);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const partial = `${file}.partial-${randomBytes(6).toString('hex')}`;
    try {
      await writeFile(partial, bytes, { flag: 'wx' });
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    this.remember(key, file, bytes.length);
    await this.evict(key);
    return { file, size: bytes.length, modifiedAt: new Date() };
  }

  private remember(key: string, file: string, size: number): void {
    this.forget(key);
    this.entries.set(key, { file, size });
    this.total += size;
  }

  private forget(key: string): void {
    const known = this.entries.get(key);
    if (!known) return;
    this.entries.delete(key);
    this.total -= known.size;
  }

  /** Deletes least recently used renditions until the total is within the cap. */
  private async evict(keep: string): Promise<void> {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes) return;
      if (key === keep) continue;
      this.forget(key);
      await rm(entry.file, { force: true });
    }
  }

  private async scan(): Promise<void> {
    let buckets: string[];
    try {
      buckets = await readdir(this.dir);
    } catch {
      return;
    }
    const found: { key: string; file: string; size: number; at: number }[] = [];
    for (const bucket of buckets) {
      const folder = join(this.dir, bucket);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const file = join(folder, name);
        const info = await stat(file).catch(() => null);
        if (!info?.isFile()) continue;
        if (name.includes('.partial-')) {
          // Left by a crash mid-write (a live writer renames within seconds).
          if (Date.now() - info.mtimeMs > STALE_PARTIAL_MS) await rm(file, { force: true });
          continue;
        }
        found.push({ key: name.replace(/\..*$/, ''), file, size: info.size, at: info.mtimeMs });
      }
    }
    found.sort((a, b) => a.at - b.at);
    // Entries met since start are more recent than anything found on disk: keep them last.
    const recent = [...this.entries];
    this.entries.clear();
    this.total = 0;
    for (const entry of found) this.remember(entry.key, entry.file, entry.size);
    for (const [key, entry] of recent) this.remember(key, entry.file, entry.size);
    await this.evict('');
  }

  /** Resolves once renditions from earlier runs are counted (tests). */
  ready(): Promise<void> {
    return this.scanned;
  }
}
