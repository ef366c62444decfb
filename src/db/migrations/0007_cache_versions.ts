import { type Kysely, sql } from 'kysely';

/**
 * What lets a process keep the schema and what a token authenticates to in memory and
 * still see every committed change on its very next request (domain/caches):
 *
 * - `environments.schema_version` moves whenever a table the schema cache holds changes
 *   in that environment, bumped by statement triggers (environment migration
 *   0009_schema_version), so no code path, nor raw SQL, can forget it. Values come from
 *   one sequence: a version is never seen twice, even for an environment row deleted and
 *   made again. Only a ready environment's version moves: a fork's copy writes into a
 *   `creating` one, and on PostgreSQL it copies in a REPEATABLE READ transaction that
 *   must not update the row the progress figure is written to from another connection.
 * - Changes to what `authenticate` reads (tokens, roles, environments' identity and
 *   status, not the last-access or last-change stamps) are announced on the
 *   `fieldhouse_cache` channel, as schema changes are: the embedded engine delivers
 *   NOTIFY to its own process at commit, which drops what it cached.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE SEQUENCE schema_version_seq;
    ALTER TABLE environments
      ADD COLUMN schema_version bigint NOT NULL DEFAULT nextval('schema_version_seq');

    CREATE FUNCTION fieldhouse_schema_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE public.environments
        SET schema_version = nextval('public.schema_version_seq')
        WHERE schema_name = TG_TABLE_SCHEMA AND status = 'ready';
      PERFORM pg_notify('fieldhouse_cache', TG_TABLE_SCHEMA);
      RETURN NULL;
    END $$;

    CREATE FUNCTION fieldhouse_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('fieldhouse_cache', TG_TABLE_NAME);
      RETURN NULL;
    END $$;

    CREATE TRIGGER access_changed
      AFTER INSERT OR DELETE OR TRUNCATE
        OR UPDATE OF token_hash, role_id, can_access_cma, hardcoded_type
      ON access_tokens FOR EACH STATEMENT EXECUTE FUNCTION fieldhouse_access_changed();
    CREATE TRIGGER access_changed
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON roles FOR EACH STATEMENT EXECUTE FUNCTION fieldhouse_access_changed();
    CREATE TRIGGER access_changed
      AFTER INSERT OR DELETE OR TRUNCATE
        OR UPDATE OF id, number, schema_name, is_primary, status
      ON environments FOR EACH STATEMENT EXECUTE FUNCTION fieldhouse_access_changed();
  `.execute(db);
}
