import { type Kysely, sql } from 'kysely';

/**
 * The access version: one number that moves, in the same transaction, with every change
 * to what a token authenticates to (tokens and roles; not a token's last-access stamp).
 * `authenticate` reads it with the token. A record change whose request did not read its
 * token again (domain/auth/assumed-access.ts) checks it after entering its environment
 * (`fieldhouse_check_access`, held and sent with the entry): a token deleted or changed,
 * or a role changed, since that answer was read raises FH006 and the change runs nothing.
 *
 * The trigger of migration 0007 that announces token changes named some columns only; it
 * now names every column `authenticate` reads, as this one does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE access_version (
      one boolean PRIMARY KEY DEFAULT true CHECK (one),
      version bigint NOT NULL
    );
    INSERT INTO access_version (version) VALUES (1);

    CREATE FUNCTION fieldhouse_access_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE public.access_version SET version = version + 1;
      RETURN NULL;
    END $$;

    CREATE TRIGGER access_moved
      AFTER INSERT OR DELETE OR TRUNCATE
        OR UPDATE OF name, token_hash, role_id, can_access_cma, can_access_cda,
          can_access_cda_preview, hardcoded_type
      ON access_tokens FOR EACH STATEMENT EXECUTE FUNCTION fieldhouse_access_moved();
    CREATE TRIGGER access_moved
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON roles FOR EACH STATEMENT EXECUTE FUNCTION fieldhouse_access_moved();

    DROP TRIGGER access_changed ON access_tokens;
    CREATE TRIGGER access_changed
      AFTER INSERT OR DELETE OR TRUNCATE
        OR UPDATE OF name, token_hash, role_id, can_access_cma, can_access_cda,
          can_access_cda_preview, hardcoded_type
      ON access_tokens FOR EACH STATEMENT EXECUTE FUNCTION fieldhouse_access_changed();

    CREATE FUNCTION fieldhouse_check_access(assumed bigint) RETURNS void
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      IF (SELECT a.version FROM public.access_version AS a) <> assumed THEN
        RAISE EXCEPTION 'tokens or roles changed since the request read its token'
          USING ERRCODE = 'FH006';
      END IF;
    END
    $$;
  `.execute(db);
}
