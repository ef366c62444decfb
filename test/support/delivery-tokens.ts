import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/client.ts';
import { insertAccessToken } from '../../src/domain/auth/access-tokens.ts';

/**
 * A delivery API token on the admin role (it reads every model), made straight in the
 * database: published content, drafts too with `preview`, and no CMA access unless asked.
 */
export async function deliveryToken(
  db: Db,
  flags: { preview: boolean; cda?: boolean; cma?: boolean },
): Promise<string> {
  const admin = await db
    .selectFrom('access_tokens')
    .select('role_id')
    .where('hardcoded_type', '=', 'admin')
    .executeTakeFirstOrThrow();
  const { token } = await insertAccessToken(db, {
    name: `Delivery ${randomUUID()}`,
    roleId: admin.role_id,
    canAccessCda: flags.cda ?? true,
    canAccessCdaPreview: flags.preview,
    canAccessCma: flags.cma ?? false,
  });
  return token;
}
