import type { AccessTokenRow } from '../db/schema.ts';

/** What a token's presentation shows of its row. */
export type TokenView = Pick<
  AccessTokenRow,
  | 'id'
  | 'name'
  | 'can_access_cda'
  | 'can_access_cda_preview'
  | 'can_access_cma'
  | 'hardcoded_type'
  | 'role_id'
  | 'last_cma_access_at'
>;

/**
 * The caller's token as it authenticated, all its presentation shows but its last use
 * (which is the request itself): a record it creates names it as its creator.
 */
export type CallerToken = Omit<TokenView, 'last_cma_access_at'>;

/** Who is calling: the authenticated token and the flags of its role. */
export type Permission =
  | 'can_edit_schema'
  | 'can_manage_menu'
  | 'can_manage_webhooks'
  | 'can_manage_workflows'
  | 'can_edit_environment'
  | 'can_manage_environments'
  | 'can_promote_environments'
  | 'can_edit_site'
  | 'can_edit_favicon'
  | 'can_manage_access_tokens'
  | 'can_manage_users'
  | 'can_manage_shared_filters'
  | 'can_manage_upload_collections';

export type Actor = {
  /** Its id and its role's id are `token.id` and `token.role_id`. */
  token: CallerToken;
  permissions: ReadonlySet<Permission>;
  environmentsAccess: 'all' | 'primary_only' | 'sandbox_only' | 'none';
  /** The role's final item-type permission entries (inherited ones included). */
  itemTypePermissions: { positive: readonly unknown[]; negative: readonly unknown[] };
  /** The role's final upload permission entries (inherited ones included). */
  uploadPermissions: { positive: readonly unknown[]; negative: readonly unknown[] };
  /** The project's built-in full-access token: role and token writes are not bound by its role. */
  hardcodedAdmin: boolean;
};
