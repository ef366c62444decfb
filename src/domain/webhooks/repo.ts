import { sql } from 'kysely';
import { WEBHOOK_CREATE_LOCK_KEY } from '../../db/lock-keys.ts';
import type { WebhookRow } from '../../db/schema.ts';
import type { Queryable, Trx } from '../../db/transaction.ts';
import { isRowId } from '../auth/row-id.ts';
import type { ValidWebhook } from './rules.ts';

function columns(webhook: ValidWebhook) {
  return {
    ...webhook,
    headers: JSON.stringify(webhook.headers),
    events: JSON.stringify(webhook.events),
  };
}

export async function findWebhook(db: Queryable, id: string): Promise<WebhookRow | undefined> {
  if (!isRowId(id)) return undefined;
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Locks the row so a concurrent update or delete waits for this transaction, and says
 * whether `renamingTo` (when given) is another webhook's name: one statement, sent with
 * the transaction's BEGIN (db/query/pipelining-dialect.ts).
 */
export async function findWebhookForUpdate(
  db: Queryable,
  id: string,
  renamingTo: string | null = null,
): Promise<(WebhookRow & { name_taken: boolean }) | undefined> {
  if (!isRowId(id)) return undefined;
  return db
    .selectFrom('webhooks')
    .selectAll()
    .select((eb) =>
      (renamingTo === null
        ? eb.lit(false)
        : eb
            .exists(
              eb
                .selectFrom('webhooks as other')
                .select('other.id')
                .where('other.name', '=', renamingTo)
                .whereRef('other.id', '<>', 'webhooks.id'),
            )
            .$castTo<boolean>()
      ).as('name_taken'),
    )
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function listWebhooks(db: Queryable): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().orderBy('id').execute();
}

export async function listWebhooksById(db: Queryable, ids: string[]): Promise<WebhookRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('webhooks').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** Serialises webhook creates until the transaction ends, so a count read under it cannot race. */
export async function lockWebhookCreates(trx: Trx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${WEBHOOK_CREATE_LOCK_KEY})`.execute(trx);
}

export async function countWebhooks(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertWebhook(db: Queryable, webhook: ValidWebhook): Promise<WebhookRow> {
  return db
    .insertInto('webhooks')
    .values(columns(webhook))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function saveWebhook(
  db: Queryable,
  id: string,
  webhook: ValidWebhook,
): Promise<WebhookRow> {
  return db
    .updateTable('webhooks')
    .set({ ...columns(webhook), updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteWebhook(db: Queryable, id: string): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export async function nameTaken(
  db: Queryable,
  name: string,
  exceptId: string | null,
): Promise<boolean> {
  let query = db.selectFrom('webhooks').select('id').where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Sets or clears the secret; the webhook's id, or undefined when there is no such webhook. */
export async function setSigningSecret(
  db: Queryable,
  id: string,
  secret: string | null,
): Promise<string | undefined> {
  if (!isRowId(id)) return undefined;
  const row = await db
    .updateTable('webhooks')
    .set({ signing_secret: secret, updated_at: new Date() })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}
