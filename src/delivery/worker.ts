import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.ts';
import type { DatabaseHandle, Db } from '../db/client.ts';
import type { Metrics } from '../metrics.ts';
import { parseAllowlist } from './allowlist.ts';
import { claimDueCalls, leaseToken, releaseLeases } from './claim.ts';
import { type DeliveryContext, deliverCall } from './deliver.ts';
import { createGuardedAgent } from './guarded-agent.ts';
import type { Logger } from './logger.ts';
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
 * `workerConcurrency` in flight), sends each outside any transaction and records the
 * outcome while the lease is still its own. Any number of workers, in any number of
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
  let claims = 0;
  let running = true;
  let pumping: Promise<void> | null = null;
  let again = false;
  // The last claim filled every free slot: more calls are probably due.
  let backlog = false;
  // With a backlog, claim again once a quarter of the slots are free: one claim
  // statement per few deliveries instead of one per delivery.
  const refill = Math.max(1, Math.floor(config.workerConcurrency / 4));

  const start = (call: Awaited<ReturnType<typeof claimDueCalls>>[number]) => {
    const task = deliverCall(call, context)
      .catch((error: unknown) => {
        // The lease expires and another attempt follows: at least once, never lost.
        logger.error({ err: error, callId: call.id }, 'could not record a webhook attempt');
      })
      .finally(() => {
        inFlight.delete(task);
        if (backlog && config.workerConcurrency - inFlight.size >= refill) wake();
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
      const calls = await claimDueCalls(db, leaseToken(id, claims), leaseMs, free);
      backlog = calls.length === free;
      for (const call of calls) start(call);
      if (!backlog) return;
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
