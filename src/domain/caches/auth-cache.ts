/**
 * What tokens authenticated to, kept in the one process that owns an embedded database:
 * every change to what authentication reads (tokens, roles, environments, versions) is
 * announced by a trigger's NOTIFY, which that engine delivers to this process before the
 * committing statement returns; `forget` then drops everything. A change that only moves
 * an environment's schema or records version (schema changes and record writes: what
 * migration scripts and editors make, one after another) is kept as that version instead
 * (`versionMoved`), and answers kept before it are read at it.
 * Never used on PostgreSQL, where another process may commit a change at any time and
 * the token is read with every request.
 *
 * A read that began before a change and ends after it must not keep its stale answer:
 * `begin` returns the generation, and `keep` stores only if no change came meanwhile.
 */
export class AuthCache<T> {
  private readonly entries = new Map<string, T>();
  /** Per kind and environment number, the version announced since entries were kept. */
  private readonly moves = new Map<string, bigint>();
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
    this.moves.clear();
  }

  /** A committed change moved this environment's schema or records to `version`. */
  versionMoved(kind: VersionKind, environmentNumber: number, version: string): void {
    const key = `${kind}:${environmentNumber}`;
    const moved = BigInt(version);
    const known = this.moves.get(key);
    // Versions come from a sequence: the highest announced is the current one.
    if (known === undefined || moved > known) this.moves.set(key, moved);
  }

  /**
   * The environment's version of this kind, given the one an entry was kept with: the one
   * announced since, when newer. (An entry read before a move and kept after it holds the
   * older one; the newer announced one is still the answer.)
   */
  currentVersion(kind: VersionKind, environmentNumber: number, keptVersion: string): string {
    const moved = this.moves.get(`${kind}:${environmentNumber}`);
    return moved !== undefined && moved > BigInt(keptVersion) ? String(moved) : keptVersion;
  }

  get size(): number {
    return this.entries.size;
  }
}

export type VersionKind = 'schema' | 'records';
