import { randomUUID } from 'node:crypto';
import type { Client } from '@datocms/cma-client-node';

type RoleCreate = Parameters<Client['roles']['create']>[0];

/** A role and a CMA token holding it, made through the API as a caller would. */
export async function createApiToken(
  admin: Client,
  role: Omit<RoleCreate, 'name'>,
): Promise<{ token: string; tokenId: string; roleId: string }> {
  const created = await admin.roles.create({ name: `Role ${randomUUID()}`, ...role });
  const accessToken = await admin.accessTokens.create({
    name: `Token ${randomUUID()}`,
    can_access_cda: false,
    can_access_cda_preview: false,
    can_access_cma: true,
    role: { type: 'role', id: created.id },
  });
  if (!accessToken.token) throw new Error('the create response must carry the secret');
  return { token: accessToken.token, tokenId: accessToken.id, roleId: created.id };
}
