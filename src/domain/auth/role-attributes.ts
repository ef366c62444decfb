/** Every boolean flag a role carries, as the official client types it. */
export const ROLE_FLAGS = [
  'can_edit_favicon',
  'can_edit_site',
  'can_edit_schema',
  'can_manage_menu',
  'can_edit_environment',
  'can_promote_environments',
  'can_manage_users',
  'can_manage_shared_filters',
  'can_manage_upload_collections',
  'can_manage_build_triggers',
  'can_manage_search_indexes',
  'can_manage_webhooks',
  'can_manage_environments',
  'can_manage_sso',
  'can_access_audit_log',
  'can_manage_workflows',
  'can_manage_access_tokens',
  'can_perform_site_search',
  'can_access_build_events_log',
  'can_access_search_index_events_log',
] as const;

export type RoleFlag = (typeof ROLE_FLAGS)[number];

export const PERMISSION_LISTS = [
  'positive_item_type_permissions',
  'negative_item_type_permissions',
  'positive_upload_permissions',
  'negative_upload_permissions',
  'positive_build_trigger_permissions',
  'negative_build_trigger_permissions',
  'positive_search_index_permissions',
  'negative_search_index_permissions',
] as const;

export const ENVIRONMENTS_ACCESS = ['all', 'primary_only', 'sandbox_only', 'none'] as const;

export type RoleAttributes = Record<RoleFlag, boolean> & {
  environments_access: (typeof ENVIRONMENTS_ACCESS)[number];
} & Record<(typeof PERMISSION_LISTS)[number], unknown[]>;

export function roleAttributes(overrides: Partial<RoleAttributes>): RoleAttributes {
  return {
    ...(Object.fromEntries(ROLE_FLAGS.map((flag) => [flag, false])) as Record<RoleFlag, boolean>),
    environments_access: 'none',
    ...(Object.fromEntries(PERMISSION_LISTS.map((list) => [list, [] as unknown[]])) as Record<
      (typeof PERMISSION_LISTS)[number],
      unknown[]
    >),
    ...overrides,
  };
}

/** The bootstrap administrator: every flag, every environment, every model. */
export const ADMIN_ROLE_ATTRIBUTES: RoleAttributes = roleAttributes({
  ...(Object.fromEntries(ROLE_FLAGS.map((flag) => [flag, true])) as Record<RoleFlag, boolean>),
  environments_access: 'all',
  positive_item_type_permissions: [
    {
      item_type: null,
      workflow: null,
      on_stage: null,
      to_stage: null,
      environment: 'main',
      action: 'all',
      on_creator: null,
      localization_scope: 'all',
      locale: null,
    },
  ],
  positive_upload_permissions: [
    {
      action: 'all',
      on_creator: null,
      environment: 'main',
      localization_scope: 'all',
      locale: null,
    },
  ],
});

/**
 * The bootstrap Editor, as a new DatoCMS project has it next to Admin (scripts look it up
 * by name, e.g. to create preview tokens): edits every record and upload of the primary
 * environment, and nothing of the schema or the project's settings.
 */
export const EDITOR_ROLE_ATTRIBUTES: RoleAttributes = roleAttributes({
  can_perform_site_search: true,
  environments_access: 'primary_only',
  positive_item_type_permissions: ADMIN_ROLE_ATTRIBUTES.positive_item_type_permissions,
  positive_upload_permissions: ADMIN_ROLE_ATTRIBUTES.positive_upload_permissions,
});
