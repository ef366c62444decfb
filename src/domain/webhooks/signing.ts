import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { NotFound } from '../errors.ts';
import * as repo from './repo.ts';

// Standard Webhooks secrets: "whsec_" + base64 of the key (24 random bytes = 192 bits).
const SECRET_BYTES = 24;

function newSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * Turns signing on, or replaces the secret: deliveries from now on are signed with
 * the new one. The secret is returned here only; webhooks never show it.
 */
export type SigningSecret = { webhookId: string; secret: string };

export async function rotateSigningSecret(db: Db, webhookId: string): Promise<SigningSecret> {
  const secret = newSecret();
  const id = await repo.setSigningSecret(db, webhookId, secret);
  if (id === undefined) throw new NotFound('Webhook', webhookId);
  return { webhookId: id, secret };
}

/** Turns signing off: deliveries go out without Standard Webhooks headers again. */
export async function removeSigningSecret(db: Db, webhookId: string): Promise<void> {
  if ((await repo.setSigningSecret(db, webhookId, null)) === undefined)
    throw new NotFound('Webhook', webhookId);
}
