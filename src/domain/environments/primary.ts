import type { Db } from '../../db/client.ts';
import { type EnvironmentRef, environmentRef } from '../../db/environment-scope.ts';

/** The primary environment, as `db` (a transaction, often) sees it. */
export async function primaryEnvironment(db: Db): Promise<EnvironmentRef> {
  const row = await db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name', 'is_primary'])
    .where('is_primary', '=', true)
    .executeTakeFirstOrThrow();
  return environmentRef(row);
}
