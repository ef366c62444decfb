import stringify from 'json-stringify-pretty-compact';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { ProjectDatabase } from '../db/schema.ts';
import { buildApp } from '../http/app.ts';

/**
 * The OpenAPI document, built from the routes without opening a database: building the
 * app runs no query, and this pool never connects because nothing asks it to.
 */
export async function buildOpenApiDocument(config: Config): Promise<unknown> {
  const db = new Kysely<ProjectDatabase>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
  const app = await buildApp({ db, engine: 'postgres', config: { ...config, logLevel: 'silent' } });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
    await db.destroy();
  }
}

/**
 * `fieldhouse openapi`: prints the document, e.g. to refresh the committed openapi.json.
 * Indented, with what fits in a line on one line, so a reader can browse it.
 */
export async function printOpenApi(config: Config): Promise<void> {
  process.stdout.write(`${stringify(await buildOpenApiDocument(config), { maxLength: 120 })}\n`);
}
