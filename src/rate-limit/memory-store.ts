import type { RateLimitStore, WindowCount } from './store.ts';

/**
 * Counts in this process's memory. Right for the embedded database, where one process
 * owns the data directory and so serves every request.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; hits: number }>();

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    const start = now - (now % windowMs);
    const current = this.windows.get(key);
    const window = current && current.start === start ? current : { start, hits: 0 };
    window.hits += 1;
    this.windows.set(key, window);
    if (this.windows.size > 10_000) this.dropEndedWindows(start);
    return { hits: window.hits, resetInMs: start + windowMs - now };
  }

  /** Keys of tokens that stopped calling would otherwise stay forever. */
  private dropEndedWindows(currentStart: number): void {
    for (const [key, window] of this.windows) {
      if (window.start < currentStart) this.windows.delete(key);
    }
  }
}
