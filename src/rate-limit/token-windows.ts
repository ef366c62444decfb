import type { RateLimit } from './store.ts';

/** Tokens followed at once; past it the least recently seen one is forgotten. */
export const MAX_TRACKED_TOKENS = 10_000;

/** Whether a request may go on, and what its answer tells the client. */
export type WindowsVerdict =
  | { admitted: true; limit: number; remaining: number }
  | { admitted: false; limit: number; resetSeconds: number };

type Window = { startedAt: number; hits: number };

/**
 * Several limits at once per token (DatoCMS's delivery API: 40 a second and 1,000 a
 * minute), counted in this process's memory. Each window opens with the token's first
 * request after the previous one closed. A refused request counts in none of them, so a
 * client that waits the reset it was given gets through. Tokens are kept least recently
 * seen first and at most MAX_TRACKED_TOKENS of them: a forgotten token starts afresh,
 * which only real (authenticated) tokens can cause.
 */
export class TokenWindows {
  private readonly tokens = new Map<string, Window[]>();

  constructor(
    private readonly limits: readonly RateLimit[],
    private readonly now: () => number = Date.now,
    private readonly maxTokens = MAX_TRACKED_TOKENS,
  ) {}

  hit(token: string): WindowsVerdict {
    const now = this.now();
    const windows = this.openWindows(token, now);
    // Every full window must have closed before another request can be admitted.
    let refused: { limit: number; waitMs: number } | null = null;
    for (const [i, limit] of this.limits.entries()) {
      const window = windows[i] as Window;
      if (window.hits < limit.limit) continue;
      const waitMs = window.startedAt + limit.windowSeconds * 1000 - now;
      if (!refused || waitMs > refused.waitMs) refused = { limit: limit.limit, waitMs };
    }
    if (refused) {
      const { limit, waitMs } = refused;
      return { admitted: false, limit, resetSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    for (const window of windows) window.hits += 1;
    return this.closest(windows);
  }

  /** The token's windows, ended ones opened afresh; the token becomes the most recent. */
  private openWindows(token: string, now: number): Window[] {
    const kept = this.tokens.get(token);
    this.tokens.delete(token);
    const windows = this.limits.map((limit, i) => {
      const window = kept?.[i];
      return window && now - window.startedAt < limit.windowSeconds * 1000
        ? window
        : { startedAt: now, hits: 0 };
    });
    this.tokens.set(token, windows);
    if (this.tokens.size > this.maxTokens) {
      const oldest = this.tokens.keys().next().value as string;
      this.tokens.delete(oldest);
    }
    return windows;
  }

  /** The limit nearest to being reached, as DatoCMS's `X-RateLimit-*` headers name it. */
  private closest(windows: Window[]): WindowsVerdict {
    let best = { limit: 0, remaining: Number.POSITIVE_INFINITY };
    this.limits.forEach((limit, i) => {
      const remaining = limit.limit - (windows[i] as Window).hits;
      if (remaining < best.remaining) best = { limit: limit.limit, remaining };
    });
    return { admitted: true, ...best };
  }

  /** Tokens currently followed (for tests of the bound). */
  get size(): number {
    return this.tokens.size;
  }
}
