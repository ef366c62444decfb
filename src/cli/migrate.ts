import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';

export async function migrate(config: Config): Promise<void> {
  const database = await openDatabase(config);
  try {
    const result = await migrateToLatest(database.db);
    const applied = result.results?.map((r) => r.migrationName) ?? [];
    process.stdout.write(
      applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n',
    );
  } finally {
    await database.close();
  }
}
