import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

/**
 * Uploads: environment-scoped, so a fork copies them with their ids and paths and its
 * records keep valid upload ids. The bytes are not copied: every row counts one
 * reference to its path in `public.upload_objects` (project migration 0013), through
 * statement triggers that also see a fork's bulk copy and a destroy.
 */
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE TABLE ${t('uploads')} (
      id text PRIMARY KEY,
      path text NOT NULL UNIQUE,
      size bigint NOT NULL,
      md5 text NOT NULL,
      mime_type text NOT NULL,
      format text,
      is_image boolean NOT NULL,
      width integer,
      height integer,
      blurhash text,
      thumbhash text,
      colors jsonb NOT NULL,
      exif_info jsonb NOT NULL,
      smart_tags jsonb NOT NULL,
      tags jsonb NOT NULL,
      author text,
      copyright text,
      notes text,
      default_field_metadata jsonb NOT NULL,
      upload_collection_id text,
      creator_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX uploads_md5_idx ON ${t('uploads')} (md5);
    CREATE INDEX uploads_created_idx ON ${t('uploads')} (created_at, id);

    CREATE TRIGGER uploads_count_inserted AFTER INSERT ON ${t('uploads')}
      REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION public.fieldhouse_count_upload_refs();
    CREATE TRIGGER uploads_count_updated AFTER UPDATE ON ${t('uploads')}
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION public.fieldhouse_count_upload_refs();
    CREATE TRIGGER uploads_count_deleted AFTER DELETE ON ${t('uploads')}
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION public.fieldhouse_count_upload_refs();
  `.execute(db);
}
