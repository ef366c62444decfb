import type { FastifyReply } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { MAX_READ_BYTES_IN_FLIGHT } from '../domain/limits.ts';
import type { AdmitRead } from '../domain/page-bytes.ts';

/** Seconds a refused read is told to wait: the official client sleeps this long, then retries. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The record bytes a process's heavy reads hold at once. A read takes its measured bytes
 * before loading them and gives them back when its response is done (sent, failed or
 * abandoned); one that does not fit is refused with 429 and `X-RateLimit-Reset`, which
 * the official client waits out and retries. A read is admitted when nothing else is in
 * flight, whatever its size, so no page within the page byte cap waits forever.
 */
export class ReadBudget {
  private inFlight = 0;

  constructor(private readonly maxBytes: number) {}

  /** What a route passes to a domain read: takes the bytes for `reply`'s lifetime. */
  admitFor(reply: FastifyReply): AdmitRead {
    return (bytes) => {
      if (this.inFlight > 0 && this.inFlight + bytes > this.maxBytes) {
        reply.header('retry-after', String(RETRY_AFTER_SECONDS));
        reply.header('x-ratelimit-reset', String(RETRY_AFTER_SECONDS));
        throw new DomainError(
          'RATE_LIMIT_EXCEEDED',
          'the server is sending as many records as it holds at once: retry shortly',
          { reason: 'read_budget' },
        );
      }
      this.inFlight += bytes;
      reply.raw.once('close', () => {
        this.inFlight -= bytes;
      });
    };
  }

  get bytesInFlight(): number {
    return this.inFlight;
  }
}

/** The process's one budget: every app of the process shares its memory. */
export const readBudget = new ReadBudget(MAX_READ_BYTES_IN_FLIGHT);
