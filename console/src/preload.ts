/**
 * Loads a page starts while its code is still on the way. The shell starts them when a
 * route matches (its render, before the page's chunk has arrived and before any effect
 * runs); the page takes each answer once, by the same key, on its first load. A reload
 * finds the entry gone and asks the API again. Starting the next route's loads drops the
 * previous route's entries, so nothing stale is ever taken and nothing accumulates.
 */
let pending = new Map<string, Promise<unknown>>();

export function preloadRoute(loads: Record<string, () => Promise<unknown>>): void {
  pending = new Map();
  for (const [key, load] of Object.entries(loads)) {
    const promise = load();
    // An unclaimed failure is the page's to report when it loads; not an unhandled rejection.
    promise.catch(() => {});
    pending.set(key, promise);
  }
}

/** The preloaded answer for `key` if there is one (taken once), else a fresh `load()`. */
export function preloaded<T>(key: string, load: () => Promise<T>): Promise<T> {
  const promise = pending.get(key) as Promise<T> | undefined;
  pending.delete(key);
  return promise ?? load();
}
