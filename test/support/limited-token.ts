import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/client.ts';
import { insertAccessToken } from '../../src/domain/auth/access-tokens.ts';
import {
  type RoleAttributes,
  type RoleFlag,
  roleAttributes,
} from '../../src/domain/auth/role-attributes.ts';

/** A CMA token whose role has exactly these attributes (the rest false or empty). */
export async function tokenWithRole(
  db: Db,
  attributes: Partial<RoleAttributes>,
): Promise<{ token: string; roleId: string; tokenId: string }> {
  const role = await db
    .insertInto('roles')
    .values({
      name: `Limited ${randomUUID()}`,
      attributes: JSON.stringify(roleAttributes({ environments_access: 'all', ...attributes })),
      inherits_permissions_from: JSON.stringify([]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { token, row } = await insertAccessToken(db, {
    name: `Limited ${randomUUID()}`,
    roleId: role.id,
    canAccessCda: false,
    canAccessCdaPreview: false,
    canAccessCma: true,
  });
  return { token, roleId: role.id, tokenId: row.id };
}

/** A CMA token whose role grants exactly these flags, in every environment. */
export async function tokenWithFlags(db: Db, flags: RoleFlag[]): Promise<string> {
  const { token } = await tokenWithRole(
    db,
    Object.fromEntries(flags.map((flag) => [flag, true])) as Partial<RoleAttributes>,
  );
  return token;
}

/**
 * One item-type permission entry: `action` on every model (or `item_type`) of
 * `environment`, optionally only on records on a workflow stage (`on_stage`), for moves
 * only towards one (`to_stage`), or only on some content (`localization_scope`, `locale`).
 */
export function itemPermission(
  action: string,
  options: {
    environment?: string;
    item_type?: string | null;
    on_creator?: string;
    on_stage?: string;
    to_stage?: string;
    localization_scope?: 'all' | 'localized' | 'not_localized';
    locale?: string;
  } = {},
): Record<string, unknown> {
  const { on_stage, to_stage, locale } = options;
  return {
    action,
    environment: options.environment ?? 'main',
    item_type: options.item_type ?? null,
    workflow: null,
    on_creator: options.on_creator ?? 'anyone',
    ...(action === 'read' || action === 'delete' || action === 'duplicate'
      ? {}
      : { localization_scope: options.localization_scope ?? 'all' }),
    ...(locale === undefined ? {} : { locale }),
    ...(on_stage === undefined ? {} : { on_stage }),
    ...(to_stage === undefined ? {} : { to_stage }),
  };
}
