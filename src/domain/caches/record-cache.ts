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

/**
 * What is kept of one environment: the newest records version it was read at, and how
 * many of its kept rows have no stamp (those go when the version moves).
 */
type Snapshot = { version: bigint; unstamped: number };

/** A kept row, the records version it was kept at, and its stamp when it has one. */
type Kept<Row> = { row: Row; bytes: number; version: bigint; stamp?: string };

/** What `load` gives: the row, the bytes its values take as stored, its stamp if any. */
export type Loaded<Row> = { row: Row; bytes: number; stamp?: string };

/**
 * Records read by id (and pages of record lists: caches.ts), each kept for the records
 * version it was read at. The version is `environments.records_version`, which a trigger
 * moves with every statement that writes the environment's records (migration
 * 0012_records_versions), raw SQL included, and which every request reads with its
 * token: a request that starts after a write commits sees a new version and misses, in
 * every process. A row is loaded after its request read the version, so it is at least
 * as new as the version it is kept under.
 *
 * A record row also carries its stamp (environment migration 0020_record_stamps), which
 * names the version of that one row. When the records version moves, stamped rows stay:
 * the next read of the record at the new version reads the row again, and if its stamp
 * is the kept one, what was kept (with its views and JSON, made once) serves again,
 * so writes to other records no longer cost every kept record its presenting.
 *
 * Bounded: rows are kept only at the newest records version their environment was read
 * at (a read at an older one is served from the database and not kept), a fixed number
 * of rows in all, a fixed number of bytes of values in all, and no row whose values take
 * more than `maxEntryBytes`. Rows are deep-frozen before anyone sees them.
 */
export class RecordCache<Row> {
  // All environments' rows, by `<environment>:<id>`, in the order they were kept.
  private readonly rows = new Map<string, Kept<Row>>();
  private readonly snapshots = new Map<number, Snapshot>();
  private keptBytes = 0;

  constructor(
    private readonly limit = DEFAULT_RECORDS,
    private readonly maxBytes = DEFAULT_KEPT_BYTES,
    private readonly maxEntryBytes = MAX_KEPT_RECORD_BYTES,
  ) {}

  /**
   * The row kept for `id` at `at`, else what `load` gives, kept when still current and
   * small enough: the row kept at an earlier version when the stamps match (the same
   * row), else the one loaded. Undefined: no such record.
   */
  async read(
    at: RecordsVersion,
    id: string,
    load: () => Promise<Loaded<Row> | undefined>,
  ): Promise<Row | undefined> {
    const kept = this.keptAt(at, id);
    if (kept !== undefined) return kept;
    const loaded = await load();
    if (!loaded) return undefined;
    const earlier = this.rows.get(keyOf(at.environmentNumber, id));
    const same = loaded.stamp !== undefined && earlier?.stamp === loaded.stamp;
    return this.keep(at, id, same && earlier ? { ...loaded, row: earlier.row } : loaded);
  }

  /** The row kept for `id` at `at`, if any. */
  keptAt(at: RecordsVersion, id: string): Row | undefined {
    const kept = this.rows.get(keyOf(at.environmentNumber, id));
    return kept?.version === BigInt(at.version) ? kept.row : undefined;
  }

  /**
   * Keeps a row loaded at `at`, when still current and small enough: the row as kept
   * (deep-frozen), or as loaded when not kept.
   */
  keep(at: RecordsVersion, id: string, loaded: Loaded<Row>): Row {
    if (loaded.bytes > this.maxEntryBytes) return loaded.row;
    const version = BigInt(at.version);
    const snapshot = this.snapshotAt(at.environmentNumber, version);
    if (snapshot === null) return loaded.row;
    const key = keyOf(at.environmentNumber, id);
    const row = deepFreeze(loaded.row);
    this.drop(key);
    while (
      this.rows.size > 0 &&
      (this.rows.size >= this.limit || this.keptBytes + loaded.bytes > this.maxBytes)
    )
      this.dropOldest();
    this.rows.set(key, { row, bytes: loaded.bytes, version, stamp: loaded.stamp });
    this.keptBytes += loaded.bytes;
    if (loaded.stamp === undefined) snapshot.unstamped += 1;
    return row;
  }

  /**
   * An environment's records moved (or it is gone): drops what is kept of it, but for
   * stamped rows, which a later read checks by their stamps.
   */
  forget(environmentNumber: number): void {
    const snapshot = this.snapshots.get(environmentNumber);
    if (!snapshot || snapshot.unstamped === 0) return;
    const prefix = `${environmentNumber}:`;
    for (const [key, kept] of this.rows)
      if (kept.stamp === undefined && key.startsWith(prefix)) this.drop(key);
  }

  get size(): number {
    return this.rows.size;
  }

  /** The bytes of values kept, as `load` measured them. */
  get bytes(): number {
    return this.keptBytes;
  }

  /** The environment's snapshot at `version`, moved up to it from an older one; null if newer. */
  private snapshotAt(environmentNumber: number, version: bigint): Snapshot | null {
    const current = this.snapshots.get(environmentNumber);
    if (current && current.version > version) return null;
    if (current && current.version === version) return current;
    if (current) {
      this.forget(environmentNumber);
      current.version = version;
      return current;
    }
    const snapshot = { version, unstamped: 0 };
    this.snapshots.set(environmentNumber, snapshot);
    return snapshot;
  }

  private dropOldest(): void {
    const oldest = this.rows.keys().next().value;
    if (oldest !== undefined) this.drop(oldest);
  }

  /** Drops one kept row, if kept, from the rows, the bytes and its environment's counts. */
  private drop(key: string): void {
    const kept = this.rows.get(key);
    if (!kept) return;
    this.rows.delete(key);
    this.keptBytes -= kept.bytes;
    if (kept.stamp !== undefined) return;
    const snapshot = this.snapshots.get(Number(key.slice(0, key.indexOf(':'))));
    if (snapshot) snapshot.unstamped -= 1;
  }
}

function keyOf(environmentNumber: number, id: string): string {
  return `${environmentNumber}:${id}`;
}
