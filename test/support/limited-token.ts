import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/client.ts';
import { insertAccessToken } from '../../src/domain/auth/access-tokens.ts';
import { type RoleFlag, roleAttributes } from '../../src/domain/auth/role-attributes.ts';

/** A CMA token whose role grants exactly these flags, in every environment. */
export async function tokenWithFlags(db: Db, flags: RoleFlag[]): Promise<string> {
  const role = await db
    .insertInto('roles')
    .values({
      name: `Limited ${randomUUID()}`,
      attributes: JSON.stringify(
        roleAttributes({
          environments_access: 'all',
          ...Object.fromEntries(flags.map((flag) => [flag, true])),
        }),
      ),
      inherits_permissions_from: JSON.stringify([]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { token } = await insertAccessToken(db, {
    name: `Limited ${randomUUID()}`,
    roleId: role.id,
    canAccessCda: false,
    canAccessCdaPreview: false,
    canAccessCma: true,
  });
  return token;
}
