/**
 * What tokens authenticated to, kept in the one process that owns an embedded database:
 * every change to what authentication reads (tokens, roles, environments, schema
 * versions) is announced by a trigger's NOTIFY, which that engine delivers to this
 * process before the committing statement returns; `forget` then drops everything, but a
 * schema change, which only moves its environment's version, is kept as that version
 * (`schemaMoved`): schema changes are what migration scripts make, one after another.
 * Never used on PostgreSQL, where another process may commit a change at any time and
 * the token is read with every request.
 *
 * A read that began before a change and ends after it must not keep its stale answer:
 * `begin` returns the generation, and `keep` stores only if no change came meanwhile.
 */
export class AuthCache<T> {
  private readonly entries = new Map<string, T>();
  /** Per environment number, the version its schema moved to since entries were kept. */
  private readonly schemaVersions = new Map<number, bigint>();
  private generation = 0;

  constructor(private readonly limit = 10_000) {}

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  begin(): number {
    return this.generation;
  }

  keep(key: string, value: T, generation: number): void {
    if (generation !== this.generation) return;
    // Tokens are few; a flood of distinct ones (or environments) empties the cache
    // instead of growing it.
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(key, value);
  }

  forget(): void {
    this.generation += 1;
    this.entries.clear();
    this.schemaVersions.clear();
  }

  /** A committed change moved this environment's schema to `version`. */
  schemaMoved(environmentNumber: number, version: string): void {
    const moved = BigInt(version);
    const known = this.schemaVersions.get(environmentNumber);
    // Versions come from one sequence: the highest announced is the current one.
    if (known === undefined || moved > known) this.schemaVersions.set(environmentNumber, moved);
  }

  /**
   * The environment's schema version, given the one an entry was kept with: the version
   * announced since, when newer. (An entry read before the move and kept after it holds
   * the older one; the newer announced one is still the answer.)
   */
  schemaVersion(environmentNumber: number, keptVersion: string): string {
    const moved = this.schemaVersions.get(environmentNumber);
    return moved !== undefined && moved > BigInt(keptVersion) ? String(moved) : keptVersion;
  }

  get size(): number {
    return this.entries.size;
  }
}
