/** The requests a key has made in the current fixed window. */
export type WindowCount = { hits: number; resetInMs: number };

/** Counts requests per key in fixed windows; shared across processes or not, per store. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<WindowCount>;
}

/** Limit `limit` requests per `windowSeconds` for each API token. */
export type RateLimit = { limit: number; windowSeconds: number };
