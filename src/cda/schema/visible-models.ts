import { createHash } from 'node:crypto';
import type { ItemTypeRow } from '../../db/schema.ts';
import type { Actor } from '../../domain/actor.ts';
import { grantOf } from '../../domain/items/access/permission-entries.ts';

/**
 * Whether the role may read any record of the model: models it may not are absent from
 * its schema (DatoCMS). Which of the records it may read is judged per query
 * (readable-records.ts).
 */
export function mayReadModel(actor: Actor, environmentId: string, model: ItemTypeRow): boolean {
  return grantOf(actor, environmentId, { action: 'read' }, model).allow.length > 0;
}

const fingerprints = new WeakMap<Actor, string>();

/** The role's item-type permissions as a short stable text: schemas are kept per value. */
export function permissionsFingerprint(actor: Actor): string {
  let kept = fingerprints.get(actor);
  if (kept === undefined) {
    kept = createHash('sha256')
      .update(JSON.stringify([actor.hardcodedAdmin, actor.itemTypePermissions]))
      .digest('base64url')
      .slice(0, 16);
    fingerprints.set(actor, kept);
  }
  return kept;
}
