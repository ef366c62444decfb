import { Type } from '@sinclair/typebox';
import {
  AnyResource,
  Json,
  Many,
  One,
  RefMany,
  RefOne,
  ResourceOf,
  Text,
  Time,
} from '../schemas/documents.ts';

// Project-wide resources: the site, environments, roles, tokens, plugins, saved filters,
// menus, job results and health probes.

export const SiteDocument = One(
  ResourceOf('site', {
    attributes: {
      name: Type.String(),
      locales: Type.Array(Type.String()),
      timezone: Type.String(),
      no_index: Type.Boolean(),
      favicon: Text(),
      last_data_change_at: Time(),
      require_2fa: Type.Boolean(),
      ip_tracking_enabled: Type.Boolean(),
      force_use_of_sandbox_environments: Type.Boolean(),
      theme: Type.Record(Type.String(), Json),
      global_seo: Json,
    },
    relationships: {
      item_types: RefMany('item_type'),
      account: RefOne('account'),
      owner: RefOne('account'),
    },
    meta: { created_at: Time(), draft_mode_default: Type.Boolean() },
  }),
  { included: AnyResource },
);

const EnvironmentResource = ResourceOf('environment', {
  meta: {
    status: Type.String(),
    fork_completion_percentage: Type.Optional(Type.Integer()),
    read_only_mode: Type.Boolean(),
    created_at: Time(),
    last_data_change_at: Time(),
    primary: Type.Boolean(),
    forked_from: Text(),
  },
});
export const EnvironmentDocument = One(EnvironmentResource);
export const EnvironmentList = Many(EnvironmentResource);

export const MaintenanceModeDocument = One(
  ResourceOf('maintenance_mode', { attributes: { active: Type.Boolean() } }),
);

const RoleResource = ResourceOf('role', {
  attributes: Type.Object(
    { name: Type.String() },
    { description: "The role's name and its permission attributes" },
  ),
  relationships: { inherits_permissions_from: RefMany('role') },
  meta: { final_permissions: Type.Record(Type.String(), Json) },
});
export const RoleDocument = One(RoleResource);
export const RoleList = Many(RoleResource);

const AccessTokenResource = ResourceOf('access_token', {
  attributes: {
    name: Type.String(),
    token: Type.Union([Type.String(), Type.Null()], {
      description: 'The secret: shown once, when it is made',
    }),
    can_access_cda: Type.Boolean(),
    can_access_cda_preview: Type.Boolean(),
    can_access_cma: Type.Boolean(),
    hardcoded_type: Text(),
    last_cma_access: Text(),
    last_cda_access: Text(),
  },
  relationships: { role: RefOne('role') },
});
export const AccessTokenDocument = One(AccessTokenResource);
export const AccessTokenList = Many(AccessTokenResource);

const PluginResource = ResourceOf('plugin', {
  attributes: {
    name: Type.String(),
    description: Text(),
    package_name: Text(),
    package_version: Text(),
    url: Type.String(),
    parameters: Type.Record(Type.String(), Json),
    permissions: Type.Array(Type.String()),
    plugin_type: Text(),
    field_types: Json,
    parameter_definitions: Json,
  },
  meta: { version: Type.String() },
});
export const PluginDocument = One(PluginResource);
export const PluginList = Many(PluginResource);

const ItemTypeFilterResource = ResourceOf('item_type_filter', {
  attributes: {
    name: Type.String(),
    filter: Json,
    columns: Json,
    order_by: Text(),
    shared: Type.Boolean(),
  },
  relationships: { item_type: RefOne('item_type') },
});
export const ItemTypeFilterDocument = One(ItemTypeFilterResource);
export const ItemTypeFilterList = Many(ItemTypeFilterResource);

const UploadFilterResource = ResourceOf('upload_filter', {
  attributes: { name: Type.String(), filter: Json, shared: Type.Boolean() },
});
export const UploadFilterDocument = One(UploadFilterResource);
export const UploadFilterList = Many(UploadFilterResource);

const MenuItemResource = ResourceOf('menu_item', {
  attributes: {
    label: Type.String(),
    external_url: Text(),
    position: Type.Integer(),
    open_in_new_tab: Type.Boolean(),
  },
  relationships: {
    item_type: RefOne('item_type'),
    item_type_filter: RefOne('item_type_filter'),
    parent: RefOne('menu_item'),
    children: RefMany('menu_item'),
  },
});
export const MenuItemDocument = One(MenuItemResource);
export const MenuItemList = Many(MenuItemResource);

const SchemaMenuItemResource = ResourceOf('schema_menu_item', {
  attributes: { label: Type.String(), position: Type.Integer(), kind: Type.String() },
  relationships: {
    item_type: RefOne('item_type'),
    parent: RefOne('schema_menu_item'),
    children: RefMany('schema_menu_item'),
  },
});
export const SchemaMenuItemDocument = One(SchemaMenuItemResource);
export const SchemaMenuItemList = Many(SchemaMenuItemResource);

export const JobResultDocument = One(
  ResourceOf('job_result', {
    attributes: {
      status: Type.Integer({ description: 'The HTTP status the change answered' }),
      payload: Json,
    },
  }),
);

export const HealthDocument = One(ResourceOf('health'));
