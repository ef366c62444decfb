import type { Db } from '../../db/client.ts';
import { type EnvironmentResource, presentEnvironment } from '../../presenters/environment.ts';
import { NotFound } from '../errors.ts';

export async function listEnvironments(db: Db): Promise<EnvironmentResource[]> {
  const rows = await db
    .selectFrom('environments')
    .selectAll()
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .execute();
  return rows.map(presentEnvironment);
}

export async function findEnvironment(db: Db, id: string): Promise<EnvironmentResource> {
  const row = await db
    .selectFrom('environments')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new NotFound('Environment', id);
  return presentEnvironment(row);
}
