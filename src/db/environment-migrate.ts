import { type Kysely, sql } from 'kysely';
import type { Db } from './client.ts';
import { lockEnvironment } from './environment-locks.ts';
import { environmentMigrations } from './environment-migrations/index.ts';
import { qualifiedTable } from './environment-scope.ts';
import type { Trx } from './transaction.ts';

// Each schema records the environment migrations it ran, so a schema dropped with its
// environment takes its history along.
const HISTORY = 'environment_migrations';

/**
 * Applies to `schemaName` the environment migrations it has not run yet, in order, in
 * the caller's transaction, creating the schema if needed. `alreadyThere` names
 * migrations whose tables the schema got otherwise (0004 moved the primary's tables);
 * `through` stops after the named one (a project migration running them cannot rely on
 * project migrations after it). Returns the names it applied.
 */
export async function migrateEnvironmentSchema(
  trx: Trx,
  schemaName: string,
  alreadyThere: readonly string[] = [],
  through?: string,
): Promise<string[]> {
  const history = qualifiedTable(schemaName, HISTORY);
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schemaName)}`.execute(trx);
  await sql`CREATE TABLE IF NOT EXISTS ${history} (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`.execute(trx);
  for (const name of alreadyThere) {
    await sql`INSERT INTO ${history} (name) VALUES (${name}) ON CONFLICT DO NOTHING`.execute(trx);
  }
  const done = await sql<{ name: string }>`SELECT name FROM ${history}`.execute(trx);
  const applied = new Set(done.rows.map((row) => row.name));
  const ran: string[] = [];
  for (const [name, migration] of Object.entries(environmentMigrations)) {
    if (applied.has(name)) continue;
    await migration.up(trx as unknown as Kysely<unknown>, (table) =>
      qualifiedTable(schemaName, table),
    );
    await sql`INSERT INTO ${history} (name) VALUES (${name})`.execute(trx);
    ran.push(name);
    if (name === through) break;
  }
  return ran;
}

/**
 * At start: brings every ready environment's schema to the latest environment
 * migrations, each under its environment's lock (several processes may start at once).
 */
export async function migrateAllEnvironments(db: Db): Promise<void> {
  const environments = await db
    .selectFrom('environments')
    .select(['number', 'schema_name'])
    .where('status', '=', 'ready')
    .execute();
  for (const environment of environments) {
    await db.transaction().execute(async (trx) => {
      await lockEnvironment(trx, environment.number);
      await migrateEnvironmentSchema(trx, environment.schema_name);
    });
  }
}
