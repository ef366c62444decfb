import type {
  ColumnType,
  Generated,
  GeneratedAlways,
  Insertable,
  Selectable,
  Updateable,
} from 'kysely';

/** Row types of every table, as Kysely sees them. Migrations are the source of truth. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
/** A nullable jsonb column without default: SQL NULL until something is stored. */
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export type ItemTypeTable = {
  id: string;
  name: string;
  api_key: string;
  singleton: boolean;
  sortable: boolean;
  tree: boolean;
  modular_block: boolean;
  draft_mode_active: boolean;
  draft_saving_active: boolean;
  all_locales_required: boolean;
  ordering_direction: 'asc' | 'desc' | null;
  ordering_meta: string | null;
  collection_appearance: 'compact' | 'table';
  hint: string | null;
  inverse_relationships_enabled: boolean;
  has_singleton_item: boolean;
  ordering_field_id: string | null;
  presentation_title_field_id: string | null;
  presentation_image_field_id: string | null;
  title_field_id: string | null;
  image_preview_field_id: string | null;
  excerpt_field_id: string | null;
  workflow_id: string | null;
  singleton_item_id: string | null;
  created_at: Timestamp;
  seq: Generated<string>;
};

export type FieldTable = {
  id: string;
  item_type_id: string;
  fieldset_id: string | null;
  label: string;
  api_key: string;
  field_type: string;
  localized: boolean;
  validators: Json<Record<string, unknown>>;
  appearance: Json<Record<string, unknown>>;
  position: number;
  hint: string | null;
  default_value: Json<unknown>;
  deep_filtering_enabled: boolean;
  content_link_enabled: boolean;
  created_at: Timestamp;
  seq: Generated<string>;
};

export type FieldsetTable = {
  id: string;
  item_type_id: string;
  title: string;
  hint: string | null;
  position: number;
  collapsible: boolean;
  start_collapsed: boolean;
  created_at: Timestamp;
  seq: Generated<string>;
};

export type MenuItemTable = {
  id: string;
  label: string;
  external_url: string | null;
  position: number;
  open_in_new_tab: boolean;
  item_type_id: string | null;
  item_type_filter_id: string | null;
  parent_id: string | null;
  created_at: Timestamp;
  seq: Generated<string>;
};

export type SchemaMenuItemTable = {
  id: string;
  label: string | null;
  position: number;
  kind: 'item_type' | 'modular_block';
  item_type_id: string | null;
  parent_id: string | null;
  created_at: Timestamp;
  seq: Generated<string>;
};

export type WorkflowStage = {
  id: string;
  name: string;
  description?: string | null;
  initial?: boolean;
};

export type WorkflowTable = {
  id: string;
  name: string;
  api_key: string;
  stages: Json<WorkflowStage[]>;
  created_at: Timestamp;
  seq: Generated<string>;
};

export type PluginTable = {
  id: string;
  name: string;
  description: string | null;
  package_name: string | null;
  package_version: string | null;
  url: string;
  parameters: Json<Record<string, unknown>>;
  permissions: Json<string[]>;
  plugin_type: string | null;
  field_types: NullableJson<string[]>;
  parameter_definitions: NullableJson<Record<string, unknown>>;
  created_at: Timestamp;
  seq: Generated<string>;
};

export type ItemTypeFilterColumn = { name: string; width: number };

export type ItemTypeFilterTable = {
  id: string;
  name: string;
  item_type_id: string;
  filter: Json<Record<string, unknown>>;
  columns: NullableJson<ItemTypeFilterColumn[]>;
  order_by: string | null;
  shared: boolean;
  created_at: Timestamp;
  seq: Generated<string>;
};

export type UploadFilterTable = {
  id: string;
  name: string;
  filter: Json<Record<string, unknown>>;
  shared: boolean;
  created_at: Timestamp;
  seq: Generated<string>;
};

/** An upload's colour, as the API shows it. */
export type UploadColor = { red: number; green: number; blue: number; alpha: number };

/** An upload's default metadata, field-keyed (alt, title, custom_data per locale). */
export type UploadDefaultFieldMetadata = {
  alt: Record<string, string | null>;
  title: Record<string, string | null>;
  custom_data: Record<string, Record<string, unknown>>;
  focal_point: { x: number; y: number } | null;
  poster_time: number | null;
};

export type UploadTable = {
  id: string;
  path: string;
  /** bigint: read as a decimal string. */
  size: ColumnType<string, number, number>;
  md5: string;
  mime_type: string;
  format: string | null;
  is_image: boolean;
  width: number | null;
  height: number | null;
  blurhash: string | null;
  thumbhash: string | null;
  colors: Json<UploadColor[]>;
  exif_info: Json<Record<string, unknown>>;
  smart_tags: Json<string[]>;
  tags: Json<string[]>;
  author: string | null;
  copyright: string | null;
  notes: string | null;
  default_field_metadata: Json<UploadDefaultFieldMetadata>;
  upload_collection_id: string | null;
  creator_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  seq: Generated<string>;
};

/** A folder of uploads: a tree, ordered by position among siblings (1-based). */
export type UploadCollectionTable = {
  id: string;
  label: string;
  position: number;
  parent_id: string | null;
  created_at: Generated<Date>;
  seq: Generated<string>;
};

/** A tag made with `POST /upload-tags`; tags carried by uploads exist without a row. */
export type UploadTagTable = {
  name: string;
  created_at: Generated<Date>;
};

/** A path an upload request handed out, until an upload consumes it. */
export type UploadRequestTable = {
  path: string;
  environment_number: number;
  access_token_id: string;
  upload_collection_id: string | null;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  created_at: Generated<Date>;
};

/** How many uploads, in every environment, name a stored path (kept by triggers). */
export type UploadObjectTable = {
  path: string;
  refs: number;
  unreferenced_since: Timestamp | null;
};

/** The project-wide part of the site (one row): the same for every environment. */
export type SiteTable = {
  id: number;
  name: string;
  require_2fa: boolean;
  ip_tracking_enabled: boolean;
  force_use_of_sandbox_environments: boolean;
  draft_mode_default: boolean;
  /** Maintenance mode is project-wide: while on, writes to the primary are refused. */
  maintenance_mode: Generated<boolean>;
  /** HMAC key of upload URLs when FIELDHOUSE_SIGNING_SECRET is unset. */
  upload_signing_secret: string | null;
  created_at: Timestamp;
  last_data_change_at: Timestamp | null;
};

/** The environment's part of the site (one row per environment schema). */
export type SiteSettingsTable = {
  id: number;
  locales: Json<string[]>;
  timezone: string;
  no_index: boolean;
  favicon: string | null;
  theme: Json<Record<string, unknown>>;
  global_seo: Json<Record<string, unknown> | null>;
  last_data_change_at: Timestamp | null;
};

export type ItemStatus = 'draft' | 'updated' | 'published';

/** Each model's number of records, kept by triggers on `items` (environment migration 0006). */
/** A model's record count is the sum of its slots (environment migration 0018). */
export type ItemCountTable = {
  item_type_id: string;
  slot: number;
  total: string;
};

/** A record: values keyed by field id (see environment migration 0003). */
export type ItemTable = {
  id: string;
  item_type_id: string;
  creator_id: string | null;
  item_values: Json<Record<string, unknown>>;
  published_values: NullableJson<Record<string, unknown>>;
  status: ItemStatus;
  current_version_id: string;
  published_version_id: string | null;
  parent_id: string | null;
  position: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  published_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  first_published_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  /** Whether the current values satisfy the schema as it is now (environment migration 0005). */
  current_valid: Generated<boolean>;
  /** The same for the published values (true while there are none). */
  published_valid: Generated<boolean>;
  /** Due times of the record's pending schedules, kept with scheduled_actions (migration 0008). */
  publication_scheduled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  unpublishing_scheduled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The workflow stage the record is in; null when its model follows no workflow. */
  stage: ColumnType<string | null, string | null | undefined, string | null>;
  seq: Generated<string>;
  /** octet_length of the values as JSON text, kept by the database (environment migration 0019). */
  values_bytes: GeneratedAlways<number>;
  published_bytes: GeneratedAlways<number | null>;
  /** The row's version, moved by the database on every write (environment migration 0020). */
  stamp: Generated<string>;
};
/** A record's timestamp columns (read as json they arrive as text: json-rows.ts). */
export const ITEM_TIMESTAMP_COLUMNS = [
  'created_at',
  'updated_at',
  'published_at',
  'first_published_at',
  'publication_scheduled_at',
  'unpublishing_scheduled_at',
] as const;
/** A record as code reads and writes it: the kept sizes and the stamp are the page statement's alone. */
export type ItemRow = Omit<Selectable<ItemTable>, 'values_bytes' | 'published_bytes' | 'stamp'>;

/** Where a stored part goes in the value holding it: its path there and its hash. */
export type PartRef = [path: (string | number)[], hash: string];

/**
 * Every save of a record, stored compactly (environment migration 0014): `item_values` is
 * the skeleton, `value_refs` places its parts, `part_hashes` lists every part it reaches.
 */
export type ItemVersionTable = {
  id: string;
  item_id: string;
  item_type_id: string;
  editor_id: string | null;
  item_values: Json<Record<string, unknown>>;
  value_refs: ColumnType<PartRef[], string | undefined, string>;
  part_hashes: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Timestamp;
  seq: Generated<string>;
};
export type ItemVersionRow = Selectable<ItemVersionTable>;

/** A part of versions' values, stored once per record by the hash of its content. */
export type ItemVersionPartTable = {
  item_id: string;
  hash: string;
  value: Json<unknown>;
  refs: ColumnType<PartRef[], string, string>;
};

/** A block: a record of a block model held by a field of one record (migration 0007). */
export type BlockTable = {
  id: string;
  item_type_id: string;
  item_id: string;
  item_values: Json<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
  seq: Generated<string>;
  /** octet_length of the values as JSON text, kept by the database (environment migration 0019). */
  values_bytes: GeneratedAlways<number>;
};
export type BlockRow = Omit<Selectable<BlockTable>, 'values_bytes'>;

export type ScheduledActionKind = 'publish' | 'unpublish';

/** A record's scheduled publication or unpublishing (migration 0008). */
export type ScheduledActionTable = {
  seq: Generated<string>;
  item_id: string;
  action: ScheduledActionKind;
  due_at: Timestamp;
  created_at: Generated<Date>;
  /** Runs that failed for a reason that may pass (a lost connection): a few are retried. */
  attempts: Generated<number>;
  /** Set when the schedule gave up: it is no longer due. */
  failed_at: Date | null;
  failure: string | null;
  /** The part of the record it acts on, as sent (migration 0011); null: the whole record. */
  selection: NullableJson<ScheduleSelection>;
};
/** `selective_publication` of a publication, `content_in_locales` of an unpublishing. */
export type ScheduleSelection =
  | { content_in_locales: string[]; non_localized_content: boolean }
  | string[];
export type ScheduledActionRow = Selectable<ScheduledActionTable>;

export type EnvironmentStatus = 'creating' | 'ready' | 'destroying';

export type EnvironmentTable = {
  /** The public id: renameable. */
  id: string;
  /** Immutable: names the schema (`env_<number>`) and the environment's advisory lock. */
  number: number;
  schema_name: string;
  is_primary: boolean;
  status: EnvironmentStatus;
  forked_from: string | null;
  read_only_mode: Generated<boolean>;
  fork_completion_percentage: Generated<number>;
  created_at: Timestamp;
  last_data_change_at: Timestamp;
  /**
   * Moves (never back, never to a value seen before) with every committed change to the
   * environment's models, fields, fieldsets or site settings: migration 0007_cache_versions.
   */
  schema_version: Generated<string>;
};

export type RoleTable = {
  id: Generated<string>;
  name: string;
  attributes: Json<Record<string, unknown>>;
  inherits_permissions_from: Json<string[]>;
  created_at: Timestamp;
};

export type AccessTokenTable = {
  id: Generated<string>;
  name: string;
  token_hash: string;
  can_access_cda: boolean;
  can_access_cda_preview: boolean;
  can_access_cma: boolean;
  hardcoded_type: string | null;
  role_id: string;
  last_cma_access_at: Timestamp | null;
  created_at: Timestamp;
};

export type JobTable = {
  id: Generated<string>;
  access_token_id: string;
  status: number;
  payload: Json<unknown>;
  created_at: Timestamp;
};

export type EventTable = {
  id: Generated<string>;
  environment: string;
  /** Whether the environment was the primary when the event happened. */
  is_environment_primary: boolean | null;
  entity_type: string;
  event_type: string;
  entity_id: string;
  entity: Json<Record<string, unknown>>;
  previous_entity: Json<Record<string, unknown> | null>;
  /** The record with its blocks inline (nested_items_in_payload); null when it has none. */
  nested_entity: NullableJson<Record<string, unknown>>;
  nested_previous_entity: NullableJson<Record<string, unknown>>;
  related_entities: Json<Record<string, unknown>[]>;
  created_at: Timestamp;
};

export type WebhookTable = {
  id: Generated<string>;
  name: string;
  url: string;
  custom_payload: string | null;
  headers: Json<Record<string, string>>;
  events: Json<WebhookEventRule[]>;
  http_basic_user: string | null;
  http_basic_password: string | null;
  enabled: boolean;
  payload_api_version: string;
  nested_items_in_payload: boolean;
  auto_retry: boolean;
  signing_secret: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type WebhookEventRule = {
  entity_type: string;
  event_types: string[];
  filters: { entity_type: string; entity_ids: string[] }[] | null;
};

export type WebhookCallStatus = 'pending' | 'success' | 'failed' | 'rescheduled';

export type WebhookCallTable = {
  id: Generated<string>;
  webhook_id: string;
  event_id: string;
  entity_type: string;
  event_type: string;
  status: ColumnType<WebhookCallStatus, WebhookCallStatus | undefined, WebhookCallStatus>;
  request_url: string | null;
  request_headers: NullableJson<Record<string, string>>;
  request_payload: string | null;
  response_status: number | null;
  response_headers: NullableJson<Record<string, string>>;
  response_payload: string | null;
  attempted_auto_retries_count: Generated<number>;
  created_at: Timestamp;
  last_sent_at: Date | null;
  /** When the next attempt should run; null when nothing is left to do. */
  due_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  next_retry_at: Date | null;
  /** The next attempt is a manual resend: it does not count as an auto-retry. */
  manual_resend: Generated<boolean>;
  lease_owner: string | null;
  lease_until: Date | null;
};

export type WebhookCallAttemptTable = {
  id: Generated<string>;
  webhook_call_id: string;
  manual: boolean;
  auto_retry_number: number;
  started_at: Date;
  duration_ms: number;
  outcome: 'success' | 'failed';
  response_status: number | null;
  error: string | null;
  worker: string;
};

export type RateLimitWindowTable = {
  key: string;
  window_start: string;
  hits: number;
};

/**
 * Tables that exist once per environment, each in the environment's own schema
 * (never in `public`). Only `src/db/environment-scope.ts` builds handles on them.
 */
export type EnvironmentDatabase = {
  item_types: ItemTypeTable;
  fields: FieldTable;
  fieldsets: FieldsetTable;
  menu_items: MenuItemTable;
  schema_menu_items: SchemaMenuItemTable;
  workflows: WorkflowTable;
  site_settings: SiteSettingsTable;
  items: ItemTable;
  item_versions: ItemVersionTable;
  item_version_parts: ItemVersionPartTable;
  item_counts: ItemCountTable;
  blocks: BlockTable;
  scheduled_actions: ScheduledActionTable;
  plugins: PluginTable;
  item_type_filters: ItemTypeFilterTable;
  upload_filters: UploadFilterTable;
  uploads: UploadTable;
  upload_collections: UploadCollectionTable;
  upload_tags: UploadTagTable;
};

/** Project-wide tables, in `public`: the same for every environment. */
export type ProjectDatabase = {
  site: SiteTable;
  environments: EnvironmentTable;
  roles: RoleTable;
  access_tokens: AccessTokenTable;
  jobs: JobTable;
  events: EventTable;
  webhooks: WebhookTable;
  webhook_calls: WebhookCallTable;
  webhook_call_attempts: WebhookCallAttemptTable;
  rate_limit_windows: RateLimitWindowTable;
  upload_requests: UploadRequestTable;
  upload_objects: UploadObjectTable;
};

export type UploadRow = Selectable<UploadTable>;
export type UploadCollectionRow = Selectable<UploadCollectionTable>;

export type ItemTypeRow = Selectable<ItemTypeTable>;
export type NewItemType = Insertable<ItemTypeTable>;
export type ItemTypePatch = Updateable<ItemTypeTable>;
export type FieldRow = Selectable<FieldTable>;
export type FieldsetRow = Selectable<FieldsetTable>;
export type MenuItemRow = Selectable<MenuItemTable>;
export type SchemaMenuItemRow = Selectable<SchemaMenuItemTable>;
export type WorkflowRow = Selectable<WorkflowTable>;
export type PluginRow = Selectable<PluginTable>;
export type ItemTypeFilterRow = Selectable<ItemTypeFilterTable>;
export type UploadFilterRow = Selectable<UploadFilterTable>;
export type SiteRow = Selectable<SiteTable>;
export type SiteSettingsRow = Selectable<SiteSettingsTable>;
export type EnvironmentRow = Selectable<EnvironmentTable>;
export type RoleRow = Selectable<RoleTable>;
export type AccessTokenRow = Selectable<AccessTokenTable>;
export type EventRow = Selectable<EventTable>;
export type WebhookRow = Selectable<WebhookTable>;
export type WebhookCallRow = Selectable<WebhookCallTable>;
