import { type Kysely, sql } from 'kysely';

/**
 * `fieldhouse_upload_ids(values)`: the upload ids record values name, as a JSON array —
 * every `upload_id` (file values, gallery entries) and every `image` (SEO values) at any
 * depth (localized values, blocks inline in published values). JSON field values are
 * stored as strings, so no user-shaped object can add keys here; other types' values have
 * neither key. Immutable, so environments index it (environment migration 0016) and
 * `GET /uploads/:id/references` finds the records naming an upload with `@>` on the index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION public.fieldhouse_upload_ids(vals jsonb) RETURNS jsonb
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN jsonb_path_query_array(vals, 'strict $.**.upload_id', '{}', true)
        || jsonb_path_query_array(vals, 'strict $.**.image ? (@.type() == "string")', '{}', true);
  `.execute(db);
}
