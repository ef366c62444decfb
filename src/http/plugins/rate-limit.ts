import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import type { RateLimit, RateLimitStore } from '../../rate-limit/store.ts';

/**
 * Per-token limits with the headers the real API sends. Registered after the protocol
 * hooks, so the request's token is known; unauthenticated requests are refused before
 * they get here. The official client waits `X-RateLimit-Reset` seconds on a 429.
 */
export function registerRateLimit(
  app: FastifyInstance,
  limit: RateLimit,
  store: RateLimitStore,
): void {
  const windowMs = limit.windowSeconds * 1000;
  app.addHook('onRequest', async (request, reply) => {
    const tokenId = request.actor?.token.id;
    if (!tokenId) return;
    const { hits, resetInMs } = await store.hit(`token:${tokenId}`, windowMs);
    reply.header('x-ratelimit-limit', String(limit.limit));
    reply.header('x-ratelimit-remaining', String(Math.max(0, limit.limit - hits)));
    if (hits > limit.limit) {
      // Whole seconds, at least one: the client sleeps exactly this long before retrying.
      reply.header('x-ratelimit-reset', String(Math.max(1, Math.ceil(resetInMs / 1000))));
      throw new DomainError(
        'RATE_LIMIT_EXCEEDED',
        `more than ${limit.limit} requests in ${limit.windowSeconds} s`,
      );
    }
  });
}
