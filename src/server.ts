import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type BootstrapResult, bootstrapProject } from './domain/bootstrap.ts';
import { buildApp } from './http/app.ts';

export type RunningServer = {
  app: FastifyInstance;
  database: DatabaseHandle;
  bootstrap: BootstrapResult;
  url: string;
  close(): Promise<void>;
};

/** Opens the database, migrates, bootstraps the project and starts listening. */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    const bootstrap = await bootstrapProject(database.db, { adminToken: config.adminToken });
    const app = await buildApp({ db: database.db, config });
    const url = await app.listen({ host: config.host, port: config.port });
    return {
      app,
      database,
      bootstrap,
      url,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
