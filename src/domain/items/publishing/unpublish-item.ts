import type { Scope, ScopedTransaction } from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../../db/environment-transaction.ts';
import { DomainError } from '../../errors.ts';
import { eventEntityOf, storedSnapshot } from '../event-entities.ts';
import { findRecordOrFail } from '../find-item.ts';
import { localesOf, snapshotValid, withoutLocales } from '../locale-content.ts';
import type { ItemField } from '../model-fields.ts';
import type { StoredItem } from '../record-context.ts';
import { emitItemEvent } from '../record-events.ts';
import type { RecordView } from '../record-view.ts';
import { checkLocalesExist, publishedChanges, type TreeOptions } from './publication-rules.ts';
import { publishedDescendants } from './tree-publishing.ts';

/** The published values and status once `locales` are withdrawn; null: nothing stays published. */
function withdrawLocales(
  before: StoredItem,
  fields: readonly ItemField[],
  locales: readonly string[],
  requested: readonly string[],
) {
  const published = localesOf(fields, before.published_values, locales);
  const notPublished = requested.filter((locale) => !published.includes(locale));
  if (before.published_values === null || notPublished.length > 0)
    throw new DomainError(
      'INVALID_ATTRIBUTES',
      `content_in_locales: the record is not published in ${notPublished.join(', ') || requested.join(', ')}`,
    );
  if (published.every((locale) => requested.includes(locale))) return null;
  return withoutLocales(fields, before.published_values, requested);
}

/**
 * Withdraws the published version: the record becomes a draft. With `locales`, only those
 * locales are withdrawn (each must be published); withdrawing every published locale is
 * withdrawing the record.
 */
export async function unpublishItem(
  scope: Scope,
  id: string,
  locales?: readonly string[],
  options: TreeOptions = {},
): Promise<RecordView> {
  return inEnvironmentTransaction(
    scope,
    (tx) => unpublishInTransaction(tx, id, locales, options),
    RECORD_CHANGE,
  );
}

/** Unpublishing inside the caller's transaction. */
export async function unpublishInTransaction(
  tx: ScopedTransaction,
  id: string,
  locales?: readonly string[],
  options: TreeOptions = {},
): Promise<RecordView> {
  const {
    row: before,
    context: { model, fields, locales: site, state },
    creator,
  } = await findRecordOrFail(tx, id);
  await options.gate?.(tx, [id]);
  if (locales) checkLocalesExist(locales, site);
  const remaining = locales ? withdrawLocales(before, fields, site, locales) : null;
  // A role limited to some content (localization_scope) may withdraw only those values.
  await options.gate?.(tx, [id], () => publishedChanges(fields, before, remaining));
  if (model.tree && remaining === null) {
    const children = await publishedDescendants(tx.db, id);
    if (children.length > 0 && !options.recursive)
      throw new DomainError(
        'PUBLISHED_CHILDREN',
        `record ${id} has published child records; unpublish them first or send recursive=true`,
        { child_ids: children },
      );
    await options.gate?.(tx, children);
    for (const child of children)
      await unpublishInTransaction(tx, child, undefined, { gate: options.gate });
  }
  const validity = { locales: site, allLocalesRequired: model.all_locales_required };
  const changes = remaining
    ? {
        published_valid: snapshotValid(fields, remaining, validity),
        status: 'updated' as const,
      }
    : {
        published_version_id: null,
        published_valid: true,
        status: 'draft' as const,
        published_at: null,
      };
  // The record's update is the change's last write: its event's statement carries it.
  const update = tx.db
    .updateTable('items')
    .set({ ...changes, published_values: remaining ? JSON.stringify(remaining) : null })
    .where('id', '=', id);
  const row: StoredItem = { ...before, ...changes, published_values: remaining };
  // Unpublishing leaves the current values and their blocks as they were.
  const snapshot = await storedSnapshot(tx.db, before, fields);
  const entity = eventEntityOf(row, model, fields, snapshot);
  const previous = eventEntityOf(before, model, fields, snapshot);
  await emitItemEvent(tx, state, 'unpublish', entity, previous, creator, { writes: [update] });
  return entity.plain;
}
