import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type BootstrapResult, bootstrapProject } from './domain/bootstrap.ts';
import { invalidateOnNotify } from './domain/caches/caches.ts';
import { removeInterruptedForks } from './domain/environments/recovery.ts';
import { startUploadSweeper } from './domain/uploads/sweep-runner.ts';
import { buildApp } from './http/app.ts';
import { buildOpsApp } from './http/ops-app.ts';
import { createMetrics } from './metrics.ts';
import { startPruneRunner } from './retention/prune-runner.ts';
import { startScheduleRunner } from './scheduler/schedule-runner.ts';
import { openStorage } from './storage/open-storage.ts';
import { type DeliveryWorker, startDeliveryWorker } from './webhook-worker/worker.ts';

/**
 * What one process does: `api` serves the API, `worker` delivers webhooks, runs due
 * scheduled publications and prunes (and answers only probes and metrics), `all` does both. Any
 * number of each can share a PostgreSQL.
 */
export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];

export type RunningServer<R extends Role = 'all'> = {
  role: R;
  /** The API; for a worker, only /healthz, /readyz and /metrics. */
  app: FastifyInstance;
  database: DatabaseHandle;
  bootstrap: BootstrapResult;
  /** The in-process webhook delivery worker (none in an API-only process). */
  worker: R extends 'api' ? null : DeliveryWorker;
  url: string;
  /** Stops listening, lets in-flight requests and deliveries finish, closes the database. */
  close(): Promise<void>;
};

/**
 * Opens the database, migrates, bootstraps the project (both safe when several processes
 * start at once), starts listening and, unless the role is `api`, delivering webhooks.
 */
export async function startServer<R extends Role = 'all'>(
  config: Config,
  role: R = 'all' as R,
): Promise<RunningServer<R>> {
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    // Embedded: this process sees every commit, so it may keep what tokens authenticate to.
    const stopInvalidation = database.listenInProcess
      ? await invalidateOnNotify(database.db, database.listenInProcess)
      : null;
    const bootstrap = await bootstrapProject(database.db, { adminToken: config.adminToken });
    const metrics = createMetrics(database.db);
    const deps = { db: database.db, engine: database.engine, config };
    const app =
      role === 'worker' ? await buildOpsApp(deps, metrics) : await buildApp(deps, metrics);
    await removeInterruptedForks(database.db, (message) => app.log.warn(message));
    const url = await app.listen({ host: config.host, port: config.port });
    const worker =
      role === 'api'
        ? null
        : startDeliveryWorker({
            db: database.db,
            config,
            logger: app.log.child({ component: 'delivery' }),
            metrics,
            listenInProcess: database.listenInProcess,
          });
    // Scheduled publications run where webhooks are delivered: in worker processes.
    const schedules =
      role === 'api'
        ? null
        : startScheduleRunner({
            db: database.db,
            logger: app.log.child({ component: 'schedules' }),
            pollMs: config.schedulePollMs,
          });
    // So does pruning: versions past their retention, delivered events, old webhook calls.
    const pruning =
      role === 'api'
        ? null
        : startPruneRunner({
            db: database.db,
            logger: app.log.child({ component: 'pruning' }),
            config,
          });
    // And the deletion of upload bytes no environment names any more, on the same schedule.
    const sweeper =
      role === 'api'
        ? null
        : startUploadSweeper({
            db: database.db,
            storage: openStorage(config.storage),
            logger: app.log.child({ component: 'upload-sweep' }),
            intervalMs: config.pruneIntervalMs,
          });
    return {
      role,
      app,
      database,
      bootstrap,
      worker: worker as RunningServer<R>['worker'],
      url,
      close: async () => {
        // The API stops taking changes first; then in-flight deliveries finish and record.
        await app.close();
        app.log.info('HTTP server closed: no new connections, in-flight requests finished');
        if (schedules) {
          await schedules.stop();
          app.log.info('schedule runner stopped: no run in progress');
        }
        if (pruning) {
          await pruning.stop();
          app.log.info('pruning stopped: no batch in progress');
        }
        if (sweeper) {
          await sweeper.stop();
          app.log.info('upload sweep stopped: no batch in progress');
        }
        if (worker) {
          await worker.stop();
          app.log.info('delivery worker stopped: in-flight deliveries recorded, leases released');
        }
        await stopInvalidation?.();
        await database.close();
        app.log.info('database closed');
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
