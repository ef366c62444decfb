import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { ENVIRONMENTS_LOCK_KEY } from '../../db/lock-keys.ts';
import type { EnvironmentRow } from '../../db/schema.ts';
import type { Trx } from '../../db/transaction.ts';
import { NotFound } from '../errors.ts';

export async function lockEnvironments(trx: Trx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(ENVIRONMENTS_LOCK_KEY)})`.execute(trx);
}

/**
 * Environment rows as presented: a record write stamps its records-version slot rather than
 * the environment's row (project migration 0016), so the last data change is the later of
 * the row's stamp and its slots'.
 */
function environmentRows(db: Db | Trx) {
  return db.selectFrom('environments').select([
    'id',
    'number',
    'schema_name',
    'is_primary',
    'status',
    'forked_from',
    'read_only_mode',
    'fork_completion_percentage',
    'created_at',
    'schema_version',
    sql<Date>`greatest(environments.last_data_change_at, (
        SELECT max(v.changed_at) FROM environment_records_versions AS v
        WHERE v.schema_name = environments.schema_name))`.as('last_data_change_at'),
  ]);
}

export async function listEnvironments(db: Db): Promise<EnvironmentRow[]> {
  const rows = await environmentRows(db)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .orderBy('number')
    .execute();
  return rows;
}

export async function findRow(db: Db | Trx, id: string): Promise<EnvironmentRow | undefined> {
  return environmentRows(db).where('id', '=', id).executeTakeFirst();
}

export async function findRowOrFail(db: Db | Trx, id: string): Promise<EnvironmentRow> {
  const row = await findRow(db, id);
  if (!row) throw new NotFound('Environment', id);
  return row;
}

export async function findEnvironment(db: Db, id: string): Promise<EnvironmentRow> {
  return await findRowOrFail(db, id);
}
