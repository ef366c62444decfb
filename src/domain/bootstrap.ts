import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import { scopedTransaction } from '../db/environment-scope.ts';
import { BOOTSTRAP_LOCK_KEY } from '../db/lock-keys.ts';
import { ADMIN_ROLE_ATTRIBUTES, EDITOR_ROLE_ATTRIBUTES } from './auth/role-attributes.ts';
import { generateToken, hashToken } from './auth/tokens.ts';
import { primaryEnvironment } from './environments/primary.ts';

export type BootstrapResult = { created: false } | { created: true; adminToken: string };

/**
 * On an empty database, creates the project: its site (locales ["en"]), the primary
 * environment `main`, the `Admin` and `Editor` roles a new DatoCMS project has
 * and a full-access API token held by Admin. Several
 * processes may start at once on one PostgreSQL; the lock makes exactly one create it.
 */
export async function bootstrapProject(
  db: Db,
  options: { adminToken: string | null },
): Promise<BootstrapResult> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`.execute(trx);
    const existing = await trx.selectFrom('site').select('id').executeTakeFirst();
    if (existing) return { created: false };
    await trx
      .insertInto('site')
      .values({
        id: 1,
        name: 'Fieldhouse',
        require_2fa: false,
        ip_tracking_enabled: false,
        force_use_of_sandbox_environments: false,
        draft_mode_default: false,
      })
      .execute();
    // Migration 0004 created the primary environment `main` and its schema.
    await scopedTransaction(trx, await primaryEnvironment(trx))
      .db.insertInto('site_settings')
      .values({
        id: 1,
        locales: JSON.stringify(['en']),
        timezone: 'UTC',
        theme: JSON.stringify({ type: 'monochromatic', hue: 190 }),
        global_seo: JSON.stringify(null),
        no_index: false,
      })
      .execute();
    const role = await trx
      .insertInto('roles')
      .values({
        name: 'Admin',
        attributes: JSON.stringify(ADMIN_ROLE_ATTRIBUTES),
        inherits_permissions_from: JSON.stringify([]),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('roles')
      .values({
        name: 'Editor',
        attributes: JSON.stringify(EDITOR_ROLE_ATTRIBUTES),
        inherits_permissions_from: JSON.stringify([]),
      })
      .execute();
    const adminToken = options.adminToken ?? generateToken();
    await trx
      .insertInto('access_tokens')
      .values({
        name: 'Full-access API token',
        token_hash: hashToken(adminToken),
        can_access_cda: true,
        can_access_cda_preview: true,
        can_access_cma: true,
        hardcoded_type: 'admin',
        role_id: role.id,
      })
      .execute();
    return { created: true, adminToken };
  });
}
