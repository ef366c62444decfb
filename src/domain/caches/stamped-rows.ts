import { deepFreeze } from './deep-freeze.ts';

// Rows kept at once, all environments and kinds together; past it the least recently used
// goes. A page lists up to 500 records: a few pages' worth.
const DEFAULT_ROWS = 2_000;
// Bytes of values kept at once (as the page statement measures them); past it the least
// recently used go too. What is made of a kept row (its view, its JSON) is a small
// multiple of it, as in the record cache.
const DEFAULT_KEPT_BYTES = 4 * 1024 * 1024;
// A row larger than this is served but not kept.
const MAX_KEPT_ROW_BYTES = 32 * 1024;

type Kept<Row> = { stamp: string; row: Row; bytes: number };

/** A row to find: its record and the stamp a statement of this request read it at. */
export type Stamped = { id: string; stamp: string };

/**
 * Record rows kept by the stamp the database gave the version they hold (environment
 * migration 0020_record_stamps): a new one with every write of the row, raw SQL included,
 * from one sequence, so no two versions of a row, in any environment, share one. A row
 * kept at a stamp is that version exactly, for as long as it is kept: a request that read
 * the same stamp may use it instead of reading the row, whatever was written since to
 * other records. Nothing is kept per version of the environment, so writes to other
 * records drop nothing.
 *
 * Keyed by environment (its schema number), record and `kind` (which columns the row
 * holds: a list of published values reads other columns than one of current values).
 * Bounded in rows, in bytes of values, and per row; rows are deep-frozen before anyone
 * sees them. What is kept of an environment is not dropped with it: a row with one of
 * its stamps can only be a copy of that same version (a fork's), so a kept row never
 * stands for another; it goes as others are kept.
 */
export class StampedRows<Row> {
  // Most recently used last.
  private readonly rows = new Map<string, Kept<Row>>();
  private keptBytes = 0;

  constructor(
    private readonly limit = DEFAULT_ROWS,
    private readonly maxBytes = DEFAULT_KEPT_BYTES,
    private readonly maxEntryBytes = MAX_KEPT_ROW_BYTES,
  ) {}

  /** The row kept of this record at exactly this stamp, if any. */
  get(environmentNumber: number, kind: string, wanted: Stamped): Row | undefined {
    const key = keyOf(environmentNumber, kind, wanted.id);
    const kept = this.rows.get(key);
    if (kept?.stamp !== wanted.stamp) return undefined;
    this.rows.delete(key);
    this.rows.set(key, kept);
    return kept.row;
  }

  /**
   * Keeps a row read at `stamp` (replacing an older version of it), unless too large: the
   * row as kept (deep-frozen), or as given when not kept.
   */
  keep(
    environmentNumber: number,
    kind: string,
    stamp: string,
    id: string,
    row: Row,
    bytes: number,
  ): Row {
    if (bytes > this.maxEntryBytes) return row;
    const key = keyOf(environmentNumber, kind, id);
    this.drop(key);
    while (
      this.rows.size > 0 &&
      (this.rows.size >= this.limit || this.keptBytes + bytes > this.maxBytes)
    )
      this.drop(this.rows.keys().next().value as string);
    const frozen = deepFreeze(row);
    this.rows.set(key, { stamp, row: frozen, bytes });
    this.keptBytes += bytes;
    return frozen;
  }

  get size(): number {
    return this.rows.size;
  }

  get bytes(): number {
    return this.keptBytes;
  }

  private drop(key: string): void {
    const kept = this.rows.get(key);
    if (!kept) return;
    this.rows.delete(key);
    this.keptBytes -= kept.bytes;
  }
}

function keyOf(environmentNumber: number, kind: string, id: string): string {
  return `${environmentNumber}:${kind}:${id}`;
}
