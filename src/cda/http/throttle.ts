import type { FastifyReply } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import type { TokenWindows } from '../../rate-limit/token-windows.ts';

/**
 * Counts an authenticated delivery request against its token's limits
 * (`FIELDHOUSE_CDA_RATE_LIMIT`). Past one: 429 with `X-RateLimit-Reset`, the whole
 * seconds `@datocms/cda-client` waits before it retries by itself.
 */
export function throttleDelivery(
  windows: TokenWindows,
  tokenId: string,
  reply: FastifyReply,
): void {
  const verdict = windows.hit(tokenId);
  reply.header('x-ratelimit-limit', String(verdict.limit));
  if (verdict.admitted) {
    reply.header('x-ratelimit-remaining', String(verdict.remaining));
    return;
  }
  reply.header('x-ratelimit-remaining', '0');
  reply.header('x-ratelimit-reset', String(verdict.resetSeconds));
  throw new DomainError(
    'RATE_LIMIT_EXCEEDED',
    `This API token made more than ${verdict.limit} Content Delivery API requests in a window: retry in ${verdict.resetSeconds} s`,
  );
}
