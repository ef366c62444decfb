import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

/**
 * Upload collections (a tree: each has a parent or none, and a 1-based position among its
 * siblings) and the upload tags made with `POST /upload-tags` before any upload carries
 * them. Both are environment-scoped, like uploads, so a fork copies them with their ids.
 * An upload's collection is a foreign key: destroying a collection leaves its uploads
 * without one.
 */
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE TABLE ${t('upload_collections')} (
      id text PRIMARY KEY,
      label text NOT NULL,
      position integer NOT NULL,
      parent_id text REFERENCES ${t('upload_collections')} (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX upload_collections_parent_idx ON ${t('upload_collections')} (parent_id, position);

    ALTER TABLE ${t('uploads')} ADD FOREIGN KEY (upload_collection_id)
      REFERENCES ${t('upload_collections')} (id) ON DELETE SET NULL;
    CREATE INDEX uploads_collection_idx ON ${t('uploads')} (upload_collection_id)
      WHERE upload_collection_id IS NOT NULL;

    CREATE TABLE ${t('upload_tags')} (
      name text PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}
