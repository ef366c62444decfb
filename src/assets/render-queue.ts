import { DomainError } from '../domain/errors.ts';

/** Seconds a client refused by a full queue is told to wait. */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 2;

/**
 * At most `concurrency` renders at once per process, and at most `maxWaiting` waiting for
 * a turn: past that a request is refused at once (503, transient, Retry-After) rather than
 * queued behind work it would time out waiting for. Renders run on libvips' threads; the
 * bound keeps them from taking every core and all the memory the server needs for the
 * rest of its requests.
 */
export class RenderQueue {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new DomainError('SERVICE_UNAVAILABLE', 'too many images are being rendered: retry', {
          retry_after: QUEUE_FULL_RETRY_AFTER_SECONDS,
        });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The turn passes straight to the next waiter: `active` stays counted for it.
      if (next) next();
      else this.active--;
    }
  }

  /** Renders running and waiting (metrics, tests). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}
