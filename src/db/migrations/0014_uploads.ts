import { type Kysely, sql } from 'kysely';

/**
 * Uploads' project-wide half (see src/domain/uploads/README.md):
 *
 * - `upload_requests`: each path an upload request handed out, for which environment and
 *   token, until `POST /uploads` consumes it. It reserves the path (its primary key).
 * - `upload_objects`: how many upload rows, in all environments, name each stored path.
 *   Statement triggers on every environment's `uploads` keep the count (the function
 *   below), so a fork's copy counts its rows as it inserts them and a destroy uncounts
 *   them in its own transaction. An object at zero since `unreferenced_since` may have
 *   its bytes deleted.
 * - `site.upload_signing_secret`: the HMAC key of upload URLs when
 *   FIELDHOUSE_SIGNING_SECRET is unset, made once by the first process to need it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE site ADD COLUMN upload_signing_secret text;

    CREATE TABLE upload_requests (
      path text PRIMARY KEY,
      environment_number integer NOT NULL,
      access_token_id bigint NOT NULL,
      upload_collection_id text,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX upload_requests_expires_idx ON upload_requests (expires_at) WHERE consumed_at IS NULL;

    CREATE TABLE upload_objects (
      path text PRIMARY KEY,
      refs integer NOT NULL CHECK (refs >= 0),
      unreferenced_since timestamptz
    );
    CREATE INDEX upload_objects_unreferenced_idx ON upload_objects (unreferenced_since)
      WHERE refs = 0;

    -- Rows are counted per path, in path order, so two statements touching the same paths
    -- lock them in the same order and cannot deadlock.
    CREATE FUNCTION fieldhouse_count_upload_refs() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO public.upload_objects AS o (path, refs)
          SELECT path, count(*)::integer FROM new_rows GROUP BY path ORDER BY path
          ON CONFLICT (path) DO UPDATE SET refs = o.refs + EXCLUDED.refs, unreferenced_since = NULL;
      ELSIF TG_OP = 'DELETE' THEN
        UPDATE public.upload_objects AS o
          SET refs = o.refs - gone.n,
              unreferenced_since = CASE WHEN o.refs - gone.n = 0 THEN now() END
          FROM (SELECT path, count(*)::integer AS n FROM old_rows GROUP BY path ORDER BY path) AS gone
          WHERE o.path = gone.path;
      ELSE
        -- An update moves a reference only when it changes a row's path (a replaced file).
        UPDATE public.upload_objects AS o
          SET refs = o.refs - gone.n,
              unreferenced_since = CASE WHEN o.refs - gone.n = 0 THEN now() END
          FROM (
            SELECT old_rows.path, count(*)::integer AS n
            FROM old_rows JOIN new_rows USING (id)
            WHERE old_rows.path <> new_rows.path
            GROUP BY old_rows.path ORDER BY old_rows.path
          ) AS gone
          WHERE o.path = gone.path;
        INSERT INTO public.upload_objects AS o (path, refs)
          SELECT new_rows.path, count(*)::integer
          FROM new_rows JOIN old_rows USING (id)
          WHERE old_rows.path <> new_rows.path
          GROUP BY new_rows.path ORDER BY new_rows.path
          ON CONFLICT (path) DO UPDATE SET refs = o.refs + EXCLUDED.refs, unreferenced_since = NULL;
      END IF;
      RETURN NULL;
    END $$;

    -- DROP SCHEMA fires no trigger: an environment's destroy uncounts its uploads first.
    CREATE FUNCTION fieldhouse_release_upload_refs(schema_name text) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      IF to_regclass(format('%I.uploads', schema_name)) IS NOT NULL THEN
        EXECUTE format('DELETE FROM %I.uploads', schema_name);
      END IF;
    END $$;
  `.execute(db);
}
