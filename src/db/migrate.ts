import { type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './client.ts';
import { migrateAllEnvironments } from './environment-migrate.ts';
import { migrations } from './migrations/index.ts';

export class MigrationError extends Error {}

function migrator(db: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'fieldhouse_migrations',
    migrationLockTableName: 'fieldhouse_migrations_lock',
  });
}

/**
 * Brings the database to the latest schema: the project's migrations, then every
 * environment's. Safe to run from several processes at once.
 */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const result = await migrator(db).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`Migration ${failed} failed: ${String(result.error)}`, {
      cause: result.error,
    });
  }
  await migrateAllEnvironments(db);
  return result;
}

/** Names of known migrations not yet applied (readiness checks use it). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const all = await migrator(db).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
