import { type Kysely, sql } from 'kysely';

/**
 * A schema change's announcement on `fieldhouse_cache` (migration 0007) also carries the
 * version it moved its environment to: `env_<n>:<version>`. The embedded process then
 * keeps what each token authenticates to and only moves that environment's version in it
 * (domain/caches/caches.ts), so the request after a schema change needs no statement to
 * read its token again. Where the environment is not ready its version does not move,
 * and the payload is the bare schema name, as before: the process then drops everything.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION fieldhouse_schema_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      moved_to bigint;
    BEGIN
      UPDATE public.environments
        SET schema_version = nextval('public.schema_version_seq')
        WHERE schema_name = TG_TABLE_SCHEMA AND status = 'ready'
        RETURNING schema_version INTO moved_to;
      PERFORM pg_notify(
        'fieldhouse_cache',
        CASE WHEN moved_to IS NULL THEN TG_TABLE_SCHEMA ELSE TG_TABLE_SCHEMA || ':' || moved_to END
      );
      RETURN NULL;
    END $$;
  `.execute(db);
}
