import type { WebhookRooms } from './claim.ts';

/** An attempt that took this long (a receiver that answers late, or not at all) marks its webhook slow. */
export const SLOW_ATTEMPT_MS = 1000;
// Webhooks known slow, kept in memory: a bound, should many distinct ones come and go.
const MAX_SLOW_WEBHOOKS = 1000;

/**
 * The share of a worker's delivery slots each webhook (each endpoint) may hold, so that
 * one receiver cannot starve the others: seven eighths of them (14 of 16) at most, and a
 * quarter (4 of 16) once its receiver is slow; what is left serves the other webhooks.
 * Each worker keeps its own account: the shares are of its own slots.
 */
export type EndpointShares = {
  /** How many more calls of each webhook the next claim may take. */
  rooms(): WebhookRooms;
  started(webhookId: string): void;
  /** `attemptMs`: how long its attempt took to render and send (null: unknown). */
  finished(webhookId: string, attemptMs: number | null): void;
};

export function endpointShares(concurrency: number): EndpointShares {
  // A small reserve: a lone busy webhook keeps most of the throughput it had.
  const cap = Math.max(1, concurrency - Math.ceil(concurrency / 8));
  const slowCap = Math.max(1, Math.floor(concurrency / 4));
  const inFlight = new Map<string, number>();
  const slow = new Set<string>();

  const capOf = (webhookId: string) => (slow.has(webhookId) ? slowCap : cap);

  return {
    rooms() {
      const named = new Map<string, number>();
      for (const webhookId of new Set([...inFlight.keys(), ...slow])) {
        named.set(webhookId, Math.max(0, capOf(webhookId) - (inFlight.get(webhookId) ?? 0)));
      }
      return { named, others: cap };
    },
    started(webhookId) {
      inFlight.set(webhookId, (inFlight.get(webhookId) ?? 0) + 1);
    },
    finished(webhookId, attemptMs) {
      const left = (inFlight.get(webhookId) ?? 1) - 1;
      if (left > 0) inFlight.set(webhookId, left);
      else inFlight.delete(webhookId);
      if (attemptMs === null) return;
      if (attemptMs < SLOW_ATTEMPT_MS) {
        slow.delete(webhookId);
        return;
      }
      slow.delete(webhookId); // re-added last: the oldest entry goes first
      slow.add(webhookId);
      if (slow.size > MAX_SLOW_WEBHOOKS) slow.delete(slow.values().next().value as string);
    },
  };
}
