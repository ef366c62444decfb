import type { RouteOptions } from 'fastify';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import type { ProjectDatabase } from '../../src/db/schema.ts';
import { buildApp } from '../../src/http/app.ts';

/** Every route the API app registers, collected by Fastify's onRoute hook while it builds. */
export async function appRoutes(): Promise<RouteOptions[]> {
  const collected: RouteOptions[] = [];
  // Building the app runs no query: this pool never connects.
  const db = new Kysely<ProjectDatabase>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
  const app = await buildApp(
    { db, engine: 'postgres', config: { ...loadConfig({}), logLevel: 'silent' } },
    undefined,
    (route) => {
      collected.push(route);
    },
  );
  await app.close();
  await db.destroy();
  return collected;
}
