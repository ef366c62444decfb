import { deepFreeze } from './deep-freeze.ts';

// Records kept at once, all environments together; past it the least recently kept goes.
const DEFAULT_RECORDS = 1_000;
// A record larger than this (its values as stored) is served but not kept: the cache's
// memory stays within about DEFAULT_RECORDS × this, whatever records hold.
export const MAX_KEPT_RECORD_BYTES = 32 * 1024;

/**
 * Records read by id, kept in the one process that owns an embedded database. Every
 * statement that writes an environment's records announces that environment with a
 * trigger's NOTIFY (migration 0010_record_announcements), which that engine delivers to
 * this process before the committing statement returns; `forget` then drops what is
 * kept of that environment. Never used on PostgreSQL, where another process may write a
 * record at any time.
 *
 * A read that began before a change and ends after it must not keep its stale row:
 * `begin` returns the environment's generation, and `keep` stores only if no change came
 * meanwhile.
 */
export class RecordCache<Row> {
  private readonly rows = new Map<string, Row>();
  private readonly generations = new Map<number, number>();
  // Rows kept per environment: a write to an environment with none kept costs nothing.
  private readonly counts = new Map<number, number>();

  constructor(private readonly limit = DEFAULT_RECORDS) {}

  get(environmentNumber: number, id: string): Row | undefined {
    return this.rows.get(keyOf(environmentNumber, id));
  }

  begin(environmentNumber: number): number {
    return this.generations.get(environmentNumber) ?? 0;
  }

  /** Keeps a row read since `begin` gave `generation`, frozen; returns it. */
  keep(environmentNumber: number, id: string, row: Row, generation: number): Row {
    if (generation !== this.begin(environmentNumber)) return row;
    const key = keyOf(environmentNumber, id);
    this.drop(key);
    if (this.rows.size >= this.limit) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) this.drop(oldest);
    }
    this.rows.set(key, deepFreeze(row));
    this.counts.set(environmentNumber, (this.counts.get(environmentNumber) ?? 0) + 1);
    return row;
  }

  forget(environmentNumber: number): void {
    this.generations.set(environmentNumber, this.begin(environmentNumber) + 1);
    if (!this.counts.get(environmentNumber)) return;
    const prefix = `${environmentNumber}:`;
    for (const key of this.rows.keys()) if (key.startsWith(prefix)) this.drop(key);
  }

  private drop(key: string): void {
    if (!this.rows.delete(key)) return;
    const environmentNumber = Number(key.slice(0, key.indexOf(':')));
    this.counts.set(environmentNumber, (this.counts.get(environmentNumber) ?? 1) - 1);
  }

  get size(): number {
    return this.rows.size;
  }
}

function keyOf(environmentNumber: number, id: string): string {
  return `${environmentNumber}:${id}`;
}
