import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Records and their versions. `item_values` is keyed by field id, not api_key:
// renaming a field's api_key then changes no record, and dropping a field's values is
// `item_values - <id>`. Presenters map ids to api_keys with the model's fields, which a
// write loads anyway to validate. `published_values` holds the published version's values
// so `version=published` reads need no join. Version pointers carry no foreign key: items
// and item_versions reference each other and forks copy them table by table. Whether a
// version is the current or the published one is read from those pointers.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE TABLE ${t('items')} (
      id text PRIMARY KEY,
      item_type_id text NOT NULL REFERENCES ${t('item_types')} (id) ON DELETE CASCADE,
      creator_id text,
      item_values jsonb NOT NULL,
      published_values jsonb,
      status text NOT NULL,
      current_version_id text NOT NULL,
      published_version_id text,
      parent_id text,
      position integer,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz,
      first_published_at timestamptz,
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX items_item_type_seq_idx ON ${t('items')} (item_type_id, seq);
    CREATE INDEX items_item_type_created_idx ON ${t('items')} (item_type_id, created_at);
    CREATE INDEX items_item_type_updated_idx ON ${t('items')} (item_type_id, updated_at);
    CREATE INDEX items_seq_idx ON ${t('items')} (seq);

    CREATE TABLE ${t('item_versions')} (
      id text PRIMARY KEY,
      item_id text NOT NULL REFERENCES ${t('items')} (id) ON DELETE CASCADE,
      item_type_id text NOT NULL,
      editor_id text,
      item_values jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX item_versions_item_idx ON ${t('item_versions')} (item_id, seq);
  `.execute(db);
}
