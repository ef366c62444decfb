/**
 * Identical work asked for while it runs is not started again: every caller of the same
 * key shares the one running promise (and its result or failure). Once it settles the
 * key is free, so a later call starts afresh (and finds the cached result).
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  /** `joined`: whether this call shared work another call had started. */
  run(key: string, work: () => Promise<T>): { result: Promise<T>; joined: boolean } {
    const current = this.running.get(key);
    if (current) return { result: current, joined: true };
    const started = work().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return { result: started, joined: false };
  }

  get size(): number {
    return this.running.size;
  }
}
