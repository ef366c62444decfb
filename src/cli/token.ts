import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { insertAccessToken } from '../domain/auth/access-tokens.ts';
import { bootstrapProject } from '../domain/bootstrap.ts';

export const TOKEN_USAGE = `fieldhouse token create --name <name> [--role <role id>]
  Creates a CMA API token (default role: the bootstrap Admin role) and prints it once.`;

export async function tokenCommand(config: Config, args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { name: { type: 'string' }, role: { type: 'string' } },
  });
  if (positionals[0] !== 'create' || !values.name) throw new UsageError(TOKEN_USAGE);
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    await bootstrapProject(database.db, { adminToken: config.adminToken });
    const role = await database.db
      .selectFrom('roles')
      .select('id')
      .$if(values.role !== undefined, (q) => q.where('id', '=', values.role ?? ''))
      .orderBy('id')
      .executeTakeFirst();
    if (!role) throw new UsageError(`No role with id ${values.role}`);
    const { token } = await insertAccessToken(database.db, {
      name: values.name,
      roleId: role.id,
      canAccessCda: true,
      canAccessCdaPreview: true,
      canAccessCma: true,
    });
    process.stdout.write(`${token}\n`);
  } finally {
    await database.close();
  }
}

export class UsageError extends Error {}
