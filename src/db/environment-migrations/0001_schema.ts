import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// The schema-phase tables of one environment. Uniqueness lives here so that races end
// in a constraint violation (mapped to VALIDATION_UNIQUENESS), never a duplicate.
// Index and constraint names are per schema, so every environment has its own.
// Databases from before environments existed got these tables from the project
// migration 0001, moved into the primary's schema by 0004 with the same names.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE TABLE ${t('workflows')} (
      id text PRIMARY KEY,
      name text NOT NULL,
      api_key text NOT NULL,
      stages jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE UNIQUE INDEX workflows_api_key_key ON ${t('workflows')} (api_key);

    CREATE TABLE ${t('item_types')} (
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
      workflow_id text REFERENCES ${t('workflows')} (id) ON DELETE RESTRICT,
      singleton_item_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE UNIQUE INDEX item_types_api_key_key ON ${t('item_types')} (api_key);
    CREATE UNIQUE INDEX item_types_name_key ON ${t('item_types')} (lower(name));
    CREATE INDEX item_types_seq_idx ON ${t('item_types')} (seq);

    CREATE TABLE ${t('fieldsets')} (
      id text PRIMARY KEY,
      item_type_id text NOT NULL REFERENCES ${t('item_types')} (id) ON DELETE CASCADE,
      title text NOT NULL,
      hint text,
      position integer NOT NULL,
      collapsible boolean NOT NULL,
      start_collapsed boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX fieldsets_item_type_idx ON ${t('fieldsets')} (item_type_id, position);

    CREATE TABLE ${t('fields')} (
      id text PRIMARY KEY,
      item_type_id text NOT NULL REFERENCES ${t('item_types')} (id) ON DELETE CASCADE,
      fieldset_id text REFERENCES ${t('fieldsets')} (id) ON DELETE SET NULL,
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
    CREATE UNIQUE INDEX fields_item_type_api_key_key ON ${t('fields')} (item_type_id, api_key);
    CREATE INDEX fields_item_type_idx ON ${t('fields')} (item_type_id, position);

    ALTER TABLE ${t('item_types')}
      ADD FOREIGN KEY (ordering_field_id) REFERENCES ${t('fields')} (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (presentation_title_field_id) REFERENCES ${t('fields')} (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (presentation_image_field_id) REFERENCES ${t('fields')} (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (title_field_id) REFERENCES ${t('fields')} (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (image_preview_field_id) REFERENCES ${t('fields')} (id) ON DELETE SET NULL,
      ADD FOREIGN KEY (excerpt_field_id) REFERENCES ${t('fields')} (id) ON DELETE SET NULL;

    CREATE TABLE ${t('menu_items')} (
      id text PRIMARY KEY,
      label text NOT NULL,
      external_url text,
      position integer NOT NULL,
      open_in_new_tab boolean NOT NULL,
      item_type_id text REFERENCES ${t('item_types')} (id) ON DELETE SET NULL,
      item_type_filter_id text,
      parent_id text REFERENCES ${t('menu_items')} (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );

    CREATE TABLE ${t('schema_menu_items')} (
      id text PRIMARY KEY,
      label text,
      position integer NOT NULL,
      kind text NOT NULL,
      item_type_id text REFERENCES ${t('item_types')} (id) ON DELETE CASCADE,
      parent_id text REFERENCES ${t('schema_menu_items')} (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE UNIQUE INDEX schema_menu_items_item_type_key
      ON ${t('schema_menu_items')} (item_type_id) WHERE item_type_id IS NOT NULL;
  `.execute(db);
}
