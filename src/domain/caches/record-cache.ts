import { deepFreeze } from './deep-freeze.ts';
import type { SchemaVersion } from './schema-cache.ts';

// Records kept at once, all environments together; past it the least recently kept goes.
const DEFAULT_RECORDS = 1_000;
// Bytes of values kept at once (as JSON text, as `load` measures them): past it the least
// recently kept go too. (A kept row also holds its views, current and published, what
// they are presented as, and their JSON: viewedOnce, presentKept and documentJson. Each is about the row's size: a small
// multiple of the bound, still bound.)
const DEFAULT_KEPT_BYTES = 8 * 1024 * 1024;
// A record larger than this is served but not kept: a few large records would otherwise
// push out hundreds of small ones.
export const MAX_KEPT_RECORD_BYTES = 32 * 1024;

/** Where a request's record reads stand: its environment and the records version it saw. */
export type RecordsVersion = SchemaVersion;

/** What is kept of one environment: the records version its rows were read at. */
type Snapshot = { version: bigint; count: number };

/**
 * Records read by id (and pages of record lists: caches.ts), each kept for the records
 * version it was read at. The version is `environments.records_version`, which a trigger
 * moves with every statement that writes the environment's records (migration
 * 0012_records_versions), raw SQL included, and which every request reads with its
 * token: a request that starts after a write commits sees a new version and misses, in
 * every process. A row is loaded after its request read the version, so it is at least
 * as new as the version it is kept under.
 *
 * Bounded: one version per environment (a newer one replaces what was kept, a read at an
 * older one is served from the database and not kept), a fixed number of rows in all,
 * a fixed number of bytes of values in all, and no row whose values take more than
 * `maxEntryBytes`. Rows are deep-frozen before anyone sees them.
 */
export class RecordCache<Row> {
  // All environments' rows, by `<environment>:<id>`, in the order they were kept.
  private readonly rows = new Map<string, { row: Row; bytes: number }>();
  private readonly snapshots = new Map<number, Snapshot>();
  private keptBytes = 0;

  constructor(
    private readonly limit = DEFAULT_RECORDS,
    private readonly maxBytes = DEFAULT_KEPT_BYTES,
    private readonly maxEntryBytes = MAX_KEPT_RECORD_BYTES,
  ) {}

  /**
   * The row kept for `id` at `at`, else what `load` gives (with the bytes its values take
   * as stored), kept when still current and small enough. Undefined: no such record.
   */
  async read(
    at: RecordsVersion,
    id: string,
    load: () => Promise<{ row: Row; bytes: number } | undefined>,
  ): Promise<Row | undefined> {
    const kept = this.keptAt(at, id);
    if (kept !== undefined) return kept;
    const loaded = await load();
    return loaded && this.keep(at, id, loaded);
  }

  /** The row kept for `id` at `at`, if any. */
  keptAt(at: RecordsVersion, id: string): Row | undefined {
    if (this.snapshots.get(at.environmentNumber)?.version !== BigInt(at.version)) return undefined;
    return this.rows.get(keyOf(at.environmentNumber, id))?.row;
  }

  /**
   * Keeps a row loaded at `at`, when still current and small enough: the row as kept
   * (deep-frozen), or as loaded when not kept.
   */
  keep(at: RecordsVersion, id: string, loaded: { row: Row; bytes: number }): Row {
    if (loaded.bytes > this.maxEntryBytes) return loaded.row;
    const snapshot = this.snapshotAt(at.environmentNumber, BigInt(at.version));
    if (snapshot === null) return loaded.row;
    const key = keyOf(at.environmentNumber, id);
    const row = deepFreeze(loaded.row);
    this.drop(key);
    while (
      this.rows.size > 0 &&
      (this.rows.size >= this.limit || this.keptBytes + loaded.bytes > this.maxBytes)
    )
      this.dropOldest();
    this.rows.set(key, { row, bytes: loaded.bytes });
    this.keptBytes += loaded.bytes;
    snapshot.count += 1;
    return row;
  }

  /** Drops what is kept of one environment (its records moved, or it is gone). */
  forget(environmentNumber: number): void {
    const snapshot = this.snapshots.get(environmentNumber);
    if (!snapshot) return;
    this.snapshots.delete(environmentNumber);
    if (snapshot.count === 0) return;
    const prefix = `${environmentNumber}:`;
    for (const [key, kept] of this.rows)
      if (key.startsWith(prefix)) {
        this.rows.delete(key);
        this.keptBytes -= kept.bytes;
      }
  }

  get size(): number {
    return this.rows.size;
  }

  /** The bytes of values kept, as `load` measured them. */
  get bytes(): number {
    return this.keptBytes;
  }

  /** The environment's snapshot at `version`, replacing an older one; null if newer. */
  private snapshotAt(environmentNumber: number, version: bigint): Snapshot | null {
    const current = this.snapshots.get(environmentNumber);
    if (current && current.version > version) return null;
    if (current && current.version === version) return current;
    this.forget(environmentNumber);
    const snapshot = { version, count: 0 };
    this.snapshots.set(environmentNumber, snapshot);
    return snapshot;
  }

  private dropOldest(): void {
    const oldest = this.rows.keys().next().value;
    if (oldest !== undefined) this.drop(oldest);
  }

  /** Drops one kept row, if kept, from the rows, the bytes and its environment's count. */
  private drop(key: string): void {
    const kept = this.rows.get(key);
    if (!kept) return;
    this.rows.delete(key);
    this.keptBytes -= kept.bytes;
    const snapshot = this.snapshots.get(Number(key.slice(0, key.indexOf(':'))));
    if (snapshot) snapshot.count -= 1;
  }
}

function keyOf(environmentNumber: number, id: string): string {
  return `${environmentNumber}:${id}`;
}
