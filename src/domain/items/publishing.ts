import {
  inEnvironmentTransaction,
  type Scope,
  type ScopedTransaction,
} from '../../db/environment-scope.ts';
import { holdsBlocks } from '../../presenters/item-blocks.ts';
import type { Resource } from '../../presenters/jsonapi.ts';
import { NotFound } from '../errors.ts';
import { siteLocales } from '../fields/check-context.ts';
import { findOrFail as findItemTypeOrFail } from '../item-types/service.ts';
import { currentSnapshots } from './block-snapshots.ts';
import { eventEntityOf, storedSnapshot } from './event-entities.ts';
import { fieldsOfModel } from './model-fields.ts';
import { byApiKey, emitItemEvent, findRow } from './service.ts';
import { checkItemValues } from './values.ts';

/**
 * Publishes the record's current version (spec 09 §3 Drafts): its values were validated
 * when saved, so publishing copies them, unless a schema change made them invalid. Whole-record publishing only: selective
 * publishing of some locales is not supported yet.
 */
export async function publishItem(scope: Scope, id: string): Promise<Resource> {
  return inEnvironmentTransaction(scope, (tx) => publishInTransaction(tx, id));
}

/** Publishing inside the caller's transaction (a due schedule commits with it). */
export async function publishInTransaction(tx: ScopedTransaction, id: string): Promise<Resource> {
  const before = await findRow(tx.db, id);
  if (!before) throw new NotFound('Item', id);
  const [model, fields] = await Promise.all([
    findItemTypeOrFail(tx.db, before.item_type_id),
    fieldsOfModel(tx.db, before.item_type_id),
  ]);
  // Values saved valid were validated then; a schema change since may have broken them,
  // and an invalid record cannot be published: checking it names what is wrong.
  if (!before.current_valid)
    await checkItemValues(
      tx.db,
      {
        model,
        fields,
        locales: await siteLocales(tx.db),
        itemId: id,
        attributes: byApiKey(fields, before.item_values),
      },
      [],
    );
  const { snapshots, schema } = await currentSnapshots(tx.db, [
    { id, values: before.item_values, fields },
  ]);
  const now = new Date();
  const row = await tx.db
    .updateTable('items')
    .set({
      current_valid: true,
      published_valid: true,
      // The published values hold their blocks inline, as they are now (migration 0007).
      published_values: JSON.stringify(snapshots[0]),
      published_version_id: before.current_version_id,
      status: 'published',
      published_at: now,
      first_published_at: before.first_published_at ?? now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // Publishing leaves the current values and their blocks as they were.
  const snapshot = fields.some(holdsBlocks) ? { values: snapshots[0] ?? {}, schema } : undefined;
  const entity = eventEntityOf(row, model, fields, snapshot);
  const previous = eventEntityOf(before, model, fields, snapshot);
  await emitItemEvent(tx, model.id, 'publish', entity, previous);
  return entity.plain;
}

/** Withdraws the published version: the record becomes a draft. */
export async function unpublishItem(scope: Scope, id: string): Promise<Resource> {
  return inEnvironmentTransaction(scope, (tx) => unpublishInTransaction(tx, id));
}

/** Unpublishing inside the caller's transaction. */
export async function unpublishInTransaction(tx: ScopedTransaction, id: string): Promise<Resource> {
  const before = await findRow(tx.db, id);
  if (!before) throw new NotFound('Item', id);
  const [model, fields] = await Promise.all([
    findItemTypeOrFail(tx.db, before.item_type_id),
    fieldsOfModel(tx.db, before.item_type_id),
  ]);
  const row = await tx.db
    .updateTable('items')
    .set({
      published_values: null,
      published_version_id: null,
      status: 'draft',
      published_at: null,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // Unpublishing leaves the current values and their blocks as they were.
  const snapshot = await storedSnapshot(tx.db, before, fields);
  const entity = eventEntityOf(row, model, fields, snapshot);
  const previous = eventEntityOf(before, model, fields, snapshot);
  await emitItemEvent(tx, model.id, 'unpublish', entity, previous);
  return entity.plain;
}
