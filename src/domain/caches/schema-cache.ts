import { deepFreeze } from './deep-freeze.ts';

/** Where a request's reads stand: its environment and the schema version it saw. */
export type SchemaVersion = Readonly<{ environmentNumber: number; version: string }>;

/** What the cache holds of one environment at one version. */
type Snapshot = { version: bigint; entries: Map<string, unknown> };

export type SchemaCacheLimits = {
  /** Environments kept at once; the least recently used goes first. */
  environments: number;
  /** Documents kept per environment; past it, misses are served but not kept. */
  entriesPerEnvironment: number;
};

// The environments limit is far below this; an entry is a model, a field, a list or
// a record context, kept under each key it is asked by (id, api_key).
const DEFAULT_LIMITS: SchemaCacheLimits = { environments: 64, entriesPerEnvironment: 50_000 };

/**
 * Documents derived from an environment's schema (models, fields, record contexts),
 * each kept for the schema version it was read at. The version is
 * `environments.schema_version`, which triggers move with every committed change to the
 * tables those documents come from (migration 0007_cache_versions), and which every
 * request reads with its token: a request that starts after a change commits sees a new
 * version and misses, in every process. A document is loaded after its request read the
 * version, so it is at least as new as the version it is kept under.
 *
 * Bounded: one snapshot per environment (a newer version replaces it, an older one is
 * served from the database and not kept), a fixed number of environments and of
 * documents in each. Documents are deep-frozen before anyone sees them.
 */
export class SchemaCache {
  private readonly snapshots = new Map<number, Snapshot>();

  constructor(private readonly limits: SchemaCacheLimits = DEFAULT_LIMITS) {}

  /**
   * The document kept under `key` at `at`, else what `load` gives (kept when the
   * snapshot it was loaded for is still current). Null `at`: no cache, load.
   * `load` may throw (not found): nothing is kept.
   */
  async read<T>(at: SchemaVersion | null, key: string, load: () => Promise<T>): Promise<T> {
    if (at === null) return load();
    const snapshot = this.snapshotAt(at);
    if (snapshot === null) return load();
    if (snapshot.entries.has(key)) return snapshot.entries.get(key) as T;
    const value = deepFreeze(await load());
    // Dropped (forget) or replaced by a newer version while loading: keep nothing.
    if (
      this.snapshots.get(at.environmentNumber) === snapshot &&
      snapshot.entries.size < this.limits.entriesPerEnvironment
    ) {
      snapshot.entries.set(key, value);
    }
    return value;
  }

  /** Drops what is kept for one environment, or for all. */
  forget(environmentNumber?: number): void {
    if (environmentNumber === undefined) this.snapshots.clear();
    else this.snapshots.delete(environmentNumber);
  }

  /** How many documents are kept for this environment (for tests of the bounds). */
  size(environmentNumber: number): number {
    return this.snapshots.get(environmentNumber)?.entries.size ?? 0;
  }

  /** The snapshot for `at`, made or replaced if `at` is newer; null if `at` is older. */
  private snapshotAt(at: SchemaVersion): Snapshot | null {
    const version = BigInt(at.version);
    const current = this.snapshots.get(at.environmentNumber);
    if (current && current.version > version) return null;
    // Re-inserted on every use: the map's first key is the least recently used.
    if (current) this.snapshots.delete(at.environmentNumber);
    const snapshot =
      current && current.version === version ? current : { version, entries: new Map() };
    this.snapshots.set(at.environmentNumber, snapshot);
    if (this.snapshots.size > this.limits.environments) {
      const oldest = this.snapshots.keys().next().value as number;
      this.snapshots.delete(oldest);
    }
    return snapshot;
  }
}
