import { type Kysely, sql } from 'kysely';

// The schema-phase tables. Uniqueness lives here so that races end in a
// constraint violation (mapped to VALIDATION_UNIQUENESS), never a duplicate.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE site (
      id integer PRIMARY KEY CHECK (id = 1),
      name text NOT NULL,
      locales jsonb NOT NULL,
      timezone text NOT NULL,
      no_index boolean NOT NULL DEFAULT false,
      favicon text,
      theme jsonb NOT NULL,
      global_seo jsonb,
      require_2fa boolean NOT NULL DEFAULT false,
      ip_tracking_enabled boolean NOT NULL DEFAULT false,
      force_use_of_sandbox_environments boolean NOT NULL DEFAULT false,
      draft_mode_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_data_change_at timestamptz
    );

    CREATE TABLE environments (
      id text PRIMARY KEY,
      is_primary boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_data_change_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE roles (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL,
      attributes jsonb NOT NULL,
      inherits_permissions_from jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX roles_name_key ON roles (lower(name));

    CREATE TABLE access_tokens (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      can_access_cda boolean NOT NULL,
      can_access_cda_preview boolean NOT NULL,
      can_access_cma boolean NOT NULL,
      hardcoded_type text,
      role_id bigint NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
      last_cma_access_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX access_tokens_name_key ON access_tokens (lower(name));

    CREATE TABLE workflows (
      id text PRIMARY KEY,
      name text NOT NULL,
      api_key text NOT NULL,
      stages jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE UNIQUE INDEX workflows_api_key_key ON workflows (api_key);

    CREATE TABLE item_types (
      id text PRIMARY KEY,
      name text NOT NULL,
      api_key text NOT NULL,
      singleton boolean NOT NULL,
      sortable boolean NOT NULL,
      tree boolean NOT NULL,
      modular_block boolean NOT NULL,
      draft_mode_active boolean NOT NULL,
      draft_saving_active boolean NOT NULL,
      all_locales_required boolean NOT NULL,
      ordering_direction text,
      ordering_meta text,
      collection_appearance text NOT NULL,
      hint text,
      inverse_relationships_enabled boolean NOT NULL,
      has_singleton_item boolean NOT NULL DEFAULT false,
      ordering_field_id text,
      presentation_title_field_id text,
      presentation_image_field_id text,
      title_field_id text,
      image_preview_field_id text,
      excerpt_field_id text,
      workflow_id text REFERENCES workflows (id) ON DELETE RESTRICT,
      singleton_item_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE UNIQUE INDEX item_types_api_key_key ON item_types (api_key);
    CREATE UNIQUE INDEX item_types_name_key ON item_types (lower(name));
    CREATE INDEX item_types_seq_idx ON item_types (seq);

    CREATE TABLE fieldsets (
      id text PRIMARY KEY,
      item_type_id text NOT NULL REFERENCES item_types (id) ON DELETE CASCADE,
      title text NOT NULL,
      hint text,
      position integer NOT NULL,
      collapsible boolean NOT NULL,
      start_collapsed boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX fieldsets_item_type_idx ON fieldsets (item_type_id, position);

    CREATE TABLE fields (
      id text PRIMARY KEY,
      item_type_id text NOT NULL REFERENCES item_types (id) ON DELETE CASCADE,
      fieldset_id text REFERENCES fieldsets (id) ON DELETE SET NULL,
      label text NOT NULL,
      api_key text NOT NULL,
      field_type text NOT NULL,
      localized boolean NOT NULL,
      validators jsonb NOT NULL,
      appearance jsonb NOT NULL,
      position integer NOT NULL,
      hint text,
      default_value jsonb,
      deep_filtering_enabled boolean NOT NULL,
      content_link_enabled boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE UNIQUE INDEX fields_item_type_api_key_key ON fields (item_type_id, api_key);
    CREATE INDEX fields_item_type_idx ON fields (item_type_id, position);

    ALTER TABLE item_types
      ADD FOREIGN KEY (ordering_field_id) REFERENCES fields (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (presentation_title_field_id) REFERENCES fields (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (presentation_image_field_id) REFERENCES fields (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (title_field_id) REFERENCES fields (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (image_preview_field_id) REFERENCES fields (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (excerpt_field_id) REFERENCES fields (id) ON DELETE SET NULL;

    CREATE TABLE menu_items (
      id text PRIMARY KEY,
      label text NOT NULL,
      external_url text,
      position integer NOT NULL,
      open_in_new_tab boolean NOT NULL,
      item_type_id text REFERENCES item_types (id) ON DELETE SET NULL,
      item_type_filter_id text,
      parent_id text REFERENCES menu_items (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );

    CREATE TABLE schema_menu_items (
      id text PRIMARY KEY,
      label text,
      position integer NOT NULL,
      kind text NOT NULL,
      item_type_id text REFERENCES item_types (id) ON DELETE CASCADE,
      parent_id text REFERENCES schema_menu_items (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE UNIQUE INDEX schema_menu_items_item_type_key
      ON schema_menu_items (item_type_id) WHERE item_type_id IS NOT NULL;

    CREATE TABLE jobs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      access_token_id bigint NOT NULL,
      status integer NOT NULL,
      payload jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      environment text NOT NULL,
      entity_type text NOT NULL,
      event_type text NOT NULL,
      entity_id text NOT NULL,
      entity jsonb NOT NULL,
      previous_entity jsonb,
      related_entities jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}
