import type { Db } from '../../db/client.ts';
import type { WebhookRow } from '../../db/schema.ts';
import type { Queryable } from '../../db/transaction.ts';
import { NotFound } from '../errors.ts';
import { checkRoomFor } from '../limits.ts';
import { rethrowUniqueness } from '../uniqueness.ts';
import * as repo from './repo.ts';
import {
  applyWebhookInput,
  draftOf,
  NEW_WEBHOOK,
  validateWebhook,
  type WebhookAttributesInput,
} from './rules.ts';

// Webhooks belong to the project, not to an environment, and are not schema: their
// writes take no schema lock. The name's unique index settles races; creates take
// their own lock so the count limit holds.

export async function findWebhookOrFail(db: Queryable, id: string): Promise<WebhookRow> {
  const row = await repo.findWebhook(db, id);
  if (!row) throw new NotFound('Webhook', id);
  return row;
}

export async function listWebhooks(db: Db): Promise<WebhookRow[]> {
  return repo.listWebhooks(db);
}

export async function findWebhook(db: Db, id: string): Promise<WebhookRow> {
  return findWebhookOrFail(db, id);
}

export async function createWebhook(db: Db, input: WebhookAttributesInput): Promise<WebhookRow> {
  try {
    return await db.transaction().execute(async (trx) => {
      await repo.lockWebhookCreates(trx);
      checkRoomFor('webhooks', await repo.countWebhooks(trx));
      const next = applyWebhookInput(NEW_WEBHOOK, input);
      const webhook = validateWebhook(next, {
        nameTaken: await repo.nameTaken(trx, next.name, null),
      });
      return await repo.insertWebhook(trx, webhook);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

export async function updateWebhook(
  db: Db,
  id: string,
  input: WebhookAttributesInput,
): Promise<WebhookRow> {
  try {
    return await db.transaction().execute(async (trx) => {
      const found = await repo.findWebhookForUpdate(trx, id, input.name ?? null);
      if (!found) throw new NotFound('Webhook', id);
      const { name_taken: nameTaken, ...before } = found;
      const next = applyWebhookInput(draftOf(before), input);
      // A name left as it is cannot clash: the unique index holds it.
      const webhook = validateWebhook(next, { nameTaken });
      return await repo.saveWebhook(trx, before.id, webhook);
    });
  } catch (error) {
    rethrowUniqueness(error);
  }
}

/** Its delivery log goes with it (the calls reference the webhook, ON DELETE CASCADE). */
export async function destroyWebhook(db: Db, id: string): Promise<WebhookRow> {
  return db.transaction().execute(async (trx) => {
    const target = await repo.findWebhookForUpdate(trx, id);
    if (!target) throw new NotFound('Webhook', id);
    await repo.deleteWebhook(trx, target.id);
    return target;
  });
}
