import type { Permission } from '../actor.ts';

/** Site settings a client may change, already shape-checked by the HTTP layer. */
export type SiteUpdate = Partial<{
  name: string;
  locales: string[];
  timezone: string;
  theme: Record<string, unknown>;
  no_index: boolean;
  favicon: string | null;
  global_seo: Record<string, unknown> | null;
  require_2fa: boolean;
  ip_tracking_enabled: boolean;
  force_use_of_sandbox_environments: boolean;
}>;

/** The role flag each setting needs. */
export const SETTING_PERMISSIONS: Record<keyof SiteUpdate, Permission> = {
  locales: 'can_edit_environment',
  timezone: 'can_edit_environment',
  theme: 'can_edit_environment',
  favicon: 'can_edit_favicon',
  global_seo: 'can_edit_favicon',
  no_index: 'can_edit_favicon',
  name: 'can_edit_site',
  require_2fa: 'can_edit_site',
  ip_tracking_enabled: 'can_edit_site',
  force_use_of_sandbox_environments: 'can_edit_site',
};

/** Documented `include` paths of GET /site. */
export const SITE_INCLUDES = [
  'item_types',
  'item_types.fields',
  'item_types.fieldsets',
  'item_types.singleton_item',
  'account',
] as const;
