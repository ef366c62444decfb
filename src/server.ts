import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type DeliveryWorker, startDeliveryWorker } from './delivery/worker.ts';
import { type BootstrapResult, bootstrapProject } from './domain/bootstrap.ts';
import { buildApp } from './http/app.ts';
import { createMetrics } from './metrics.ts';

export type RunningServer = {
  app: FastifyInstance;
  database: DatabaseHandle;
  bootstrap: BootstrapResult;
  /** The in-process webhook delivery worker. */
  worker: DeliveryWorker;
  url: string;
  close(): Promise<void>;
};

/**
 * Opens the database, migrates, bootstraps the project, starts listening and starts
 * delivering webhooks in the same process.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    const bootstrap = await bootstrapProject(database.db, { adminToken: config.adminToken });
    const metrics = createMetrics(database.db);
    const app = await buildApp({ db: database.db, config }, metrics);
    const url = await app.listen({ host: config.host, port: config.port });
    const worker = startDeliveryWorker({
      db: database.db,
      config,
      logger: app.log.child({ component: 'delivery' }),
      metrics,
    });
    return {
      app,
      database,
      bootstrap,
      worker,
      url,
      close: async () => {
        // The API stops taking changes first; then in-flight deliveries finish and record.
        await app.close();
        await worker.stop();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
