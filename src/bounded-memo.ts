/**
 * Values worked out once per key and kept, up to `limit` keys: past it the map is emptied
 * rather than grown, so a flood of distinct keys (tokens, texts, models) costs recomputing,
 * never memory. For pure work only: a kept value must stay right for its key forever.
 */
export class BoundedMemo<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** The value kept for `key`, else what `workOut` gives, kept. */
  get(key: K, workOut: () => V): V {
    if (this.values.has(key)) return this.values.get(key) as V;
    if (this.values.size >= this.limit) this.values.clear();
    const value = workOut();
    this.values.set(key, value);
    return value;
  }
}
