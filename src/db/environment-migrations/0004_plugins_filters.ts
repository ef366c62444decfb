import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Plugins and saved filters: environment-scoped, so a fork copies them
// with their ids and a field's plugin editor keeps pointing at its environment's plugin.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE TABLE ${t('plugins')} (
      id text PRIMARY KEY,
      name text NOT NULL,
      description text,
      package_name text,
      package_version text,
      url text NOT NULL,
      parameters jsonb NOT NULL,
      permissions jsonb NOT NULL,
      plugin_type text,
      field_types jsonb,
      parameter_definitions jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );

    CREATE TABLE ${t('item_type_filters')} (
      id text PRIMARY KEY,
      name text NOT NULL,
      item_type_id text NOT NULL REFERENCES ${t('item_types')} (id) ON DELETE CASCADE,
      filter jsonb NOT NULL,
      columns jsonb,
      order_by text,
      shared boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX item_type_filters_item_type_idx ON ${t('item_type_filters')} (item_type_id);
    ALTER TABLE ${t('menu_items')}
      ADD FOREIGN KEY (item_type_filter_id) REFERENCES ${t('item_type_filters')} (id) ON DELETE SET NULL;

    CREATE TABLE ${t('upload_filters')} (
      id text PRIMARY KEY,
      name text NOT NULL,
      filter jsonb NOT NULL,
      shared boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
  `.execute(db);
}
