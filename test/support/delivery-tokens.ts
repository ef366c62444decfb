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

/** `@datocms/cda-client` options reading published content, or drafts too. */
export type DeliveryOptions = (drafts: boolean) => {
  token: string;
  graphqlEndpointUrl: string;
  includeDrafts: boolean;
  autoRetry: false;
};

/**
 * What `@datocms/cda-client` needs to reach the test server's delivery API: its endpoint
 * and two tokens, one for published content and a preview one for drafts, made once.
 */
export async function deliveryOptions(server: {
  baseUrl: string;
  db: Db;
}): Promise<DeliveryOptions> {
  const graphqlEndpointUrl = `${server.baseUrl}/graphql`;
  const published = await deliveryToken(server.db, { preview: false });
  const preview = await deliveryToken(server.db, { preview: true });
  return (drafts) => ({
    token: drafts ? preview : published,
    graphqlEndpointUrl,
    includeDrafts: drafts,
    autoRetry: false,
  });
}
