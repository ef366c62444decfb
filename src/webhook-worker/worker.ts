import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.ts';
import type { DatabaseHandle, Db } from '../db/client.ts';
import type { Metrics } from '../metrics.ts';
import type { Logger } from '../worker-logger.ts';
import { parseAllowlist } from './allowlist.ts';
import { claimDueCalls, leaseToken, releaseLeases } from './claim.ts';
import type { ClaimedCall } from './claimed-call.ts';
import { type DeliveryContext, deliverCall } from './deliver.ts';
import { endpointShares } from './endpoint-shares.ts';
import { createGuardedAgent } from './guarded-agent.ts';
import type { Timeouts } from './send.ts';
import { listenForWakeups, listenInProcessForWakeups, type Wakeups } from './wakeups.ts';

/** DatoCMS's limits per attempt: 2 s to connect, 8 s in total. */
export const DELIVERY_TIMEOUTS: Timeouts = { connectMs: 2000, totalMs: 8000 };
// Well above the total timeout, so a live worker always records before its lease ends.
const LEASE_MS = 30_000;
// NOTIFY wakes workers for new calls, so polling only catches retries coming due and
// expired leases; without it (a worker given no notifications) polling finds new calls too.
const POLL_MS = { notified: 1000, unnotified: 200 };

export type DeliveryWorkerOptions = {
  db: Db;
  config: Pick<
    Config,
    'databaseUrl' | 'webhookAllow' | 'webhookRetrySchedule' | 'workerConcurrency'
  >;
  logger: Logger;
  metrics?: Metrics;
  /** The embedded database's in-process NOTIFY subscription (DatabaseHandle.listenInProcess). */
  listenInProcess?: DatabaseHandle['listenInProcess'];
  /** Overrides for tests and benchmarks. */
  leaseMs?: number;
  pollMs?: number;
  timeouts?: Timeouts;
  workerId?: string;
};

export type DeliveryWorker = {
  /** This worker's name: its lease tokens start with it, attempts log it. */
  id: string;
  /** Looks for due calls now (in-process callers that just queued one). */
  wake(): void;
  /** Stops claiming, lets in-flight attempts finish and record, releases any lease left. */
  stop(): Promise<void>;
};

/**
 * Starts delivering webhook calls: claims due calls under a lease (at most
 * `workerConcurrency` in flight, and no more of one webhook than its share: see
 * endpoint-shares.ts), sends each outside any transaction and records the outcome while
 * the lease is still its own. Any number of workers, in any number of
 * processes, can share one PostgreSQL database.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, config, logger } = options;
  const id = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const timeouts = options.timeouts ?? DELIVERY_TIMEOUTS;
  const dispatcher = createGuardedAgent(parseAllowlist(config.webhookAllow), timeouts.connectMs);
  const context: DeliveryContext = {
    db,
    dispatcher,
    workerId: id,
    schedule: config.webhookRetrySchedule,
    timeouts,
    logger,
    metrics: options.metrics,
  };
  const inFlight = new Set<Promise<void>>();
  const shares = endpointShares(config.workerConcurrency);
  let claims = 0;
  let running = true;
  let pumping: Promise<void> | null = null;
  let again = false;
  // At the last claim more calls were probably due: the scan was full, or some webhook
  // was at its share (its due calls were passed over).
  let backlog = false;
  let finishedSinceClaim = 0;
  // With a backlog, claim again once a quarter of the slots have been given back: one
  // claim statement per few deliveries instead of one per delivery.
  const refill = Math.max(1, Math.floor(config.workerConcurrency / 4));

  const start = (call: ClaimedCall) => {
    shares.started(call.webhookId);
    let attemptMs: number | null = null;
    const task = deliverCall(call, context)
      .then((ms) => {
        attemptMs = ms;
      })
      .catch((error: unknown) => {
        // The lease expires and another attempt follows: at least once, never lost.
        logger.error({ err: error, callId: call.id }, 'could not record a webhook attempt');
      })
      .finally(() => {
        inFlight.delete(task);
        shares.finished(call.webhookId, attemptMs);
        finishedSinceClaim += 1;
        if (backlog && finishedSinceClaim >= refill) wake();
      });
    inFlight.add(task);
  };

  const pump = async () => {
    while (running) {
      const free = config.workerConcurrency - inFlight.size;
      if (free <= 0) {
        backlog = true;
        return;
      }
      claims += 1;
      const rooms = shares.rooms();
      const { calls, scanned } = await claimDueCalls(
        db,
        leaseToken(id, claims),
        leaseMs,
        free,
        rooms,
      );
      finishedSinceClaim = 0;
      for (const call of calls) start(call);
      // A full scan may have passed over calls of webhooks that reached their share in it:
      // the next scan skips those webhooks and finds the calls behind them.
      const more = scanned === free;
      backlog = more || [...rooms.named.values()].some((room) => room === 0);
      if (!more) return;
    }
  };

  function wake(): void {
    if (!running) return;
    if (pumping) {
      again = true;
      return;
    }
    again = false;
    pumping = pump()
      .catch((error: unknown) => logger.error({ err: error }, 'could not claim webhook calls'))
      .finally(() => {
        pumping = null;
        if (again) wake();
      });
  }

  const wakeups: Wakeups | null = config.databaseUrl
    ? listenForWakeups(config.databaseUrl, wake, logger)
    : options.listenInProcess
      ? listenInProcessForWakeups(options.listenInProcess, wake, logger)
      : null;
  const pollMs = options.pollMs ?? (wakeups ? POLL_MS.notified : POLL_MS.unnotified);
  const poll = setInterval(wake, pollMs);
  wake();
  logger.info({ worker: id, concurrency: config.workerConcurrency }, 'delivery worker started');

  let stopped: Promise<void> | null = null;
  const stop = async () => {
    running = false;
    clearInterval(poll);
    await wakeups?.close();
    await pumping;
    await Promise.allSettled([...inFlight]);
    await releaseLeases(db, id).catch((error: unknown) =>
      logger.error({ err: error }, 'could not release webhook call leases'),
    );
    await dispatcher.close();
  };
  return {
    id,
    wake,
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
  };
}
