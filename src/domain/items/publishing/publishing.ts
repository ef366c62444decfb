import { isDeepStrictEqual } from 'node:util';
import type { Scope, ScopedTransaction } from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../../db/environment-transaction.ts';
import { DomainError, ValidationFailed } from '../../errors.ts';
import type { ContentPart } from '../access/permission-entries.ts';
import type { RecordGate } from '../access/record-gate.ts';
import { currentSnapshots } from '../blocks/block-snapshots.ts';
import { holdsBlocks } from '../blocks/block-values.ts';
import { changedContent } from '../content-changes.ts';
import { eventEntityOf, storedSnapshot } from '../event-entities.ts';
import { findRecordOrFail } from '../find-item.ts';
import {
  type ContentSelection,
  localesOf,
  publishSelected,
  selectedIssues,
  snapshotValid,
  withoutLocales,
} from '../locale-content.ts';
import type { ItemField } from '../model-fields.ts';
import type { StoredItem } from '../record-context.ts';
import { emitItemEvent } from '../record-events.ts';
import { byApiKey } from '../record-input.ts';
import type { RecordView } from '../record-view.ts';
import { checkItemValues } from '../values.ts';
import { publishedDescendants, unpublishedAncestors } from './tree-publishing.ts';

export { type ContentSelection, contentSelectionOf } from '../locale-content.ts';

/**
 * `recursive=true`: publish unpublished parents too, or withdraw published children too.
 * `gate` judges the caller's permission on the record and on the tree records changed
 * along with it, as the transaction finds them under the environment's lock, so a record
 * whose state changed since the request came is judged as it now is. Absent for changes
 * no caller makes (a due schedule).
 */
export type TreeOptions = { recursive?: boolean; gate?: RecordGate };

/** Refuses locales the site does not have: nothing could be published in them. */
function checkLocalesExist(requested: readonly string[], locales: readonly string[]): void {
  const unknown = requested.filter((locale) => !locales.includes(locale));
  if (unknown.length > 0)
    throw new DomainError(
      'INVALID_ATTRIBUTES',
      `content_in_locales: unknown locale(s) ${unknown.join(', ')} (site locales: ${locales.join(', ')})`,
    );
}

/**
 * The part of a selection the record holds: a selected locale it is in neither now nor as
 * published has nothing to publish (a record is in the locales its values hold, which need
 * not be every site locale), so it is left out rather than publishing an empty locale.
 */
function heldSelection(
  fields: readonly ItemField[],
  before: StoredItem,
  selection: ContentSelection,
  locales: readonly string[],
): ContentSelection {
  const held = new Set([
    ...localesOf(fields, before.item_values, locales),
    ...localesOf(fields, before.published_values, locales),
  ]);
  return { ...selection, locales: selection.locales.filter((locale) => held.has(locale)) };
}

/**
 * Publishes the record's current version, or with a selection only
 * some of its locales and/or its non-localized content: the other parts keep what was
 * published. Values saved valid were validated when saved, so publishing copies them,
 * unless a schema change made them invalid; a selection is refused only for the parts
 * it publishes.
 */
export async function publishItem(
  scope: Scope,
  id: string,
  selection?: ContentSelection,
  options: TreeOptions = {},
): Promise<RecordView> {
  return inEnvironmentTransaction(
    scope,
    (tx) => publishInTransaction(tx, id, selection, options),
    RECORD_CHANGE,
  );
}

/** Publishing inside the caller's transaction. */
export async function publishInTransaction(
  tx: ScopedTransaction,
  id: string,
  selection?: ContentSelection,
  options: TreeOptions = {},
): Promise<RecordView> {
  const {
    row: before,
    context: { model, fields, locales, state },
    creator,
  } = await findRecordOrFail(tx, id);
  await options.gate?.(tx, [id]);
  if (selection) checkLocalesExist(selection.locales, locales);
  const held = selection && heldSelection(fields, before, selection, locales);
  // A selection of nothing is not refused (DatoCMS documents no such rule): it publishes
  // nothing, so the record, its parents and its events stay as they are.
  if (held && held.locales.length === 0 && !held.nonLocalized)
    return eventEntityOf(before, model, fields, await storedSnapshot(tx.db, before, fields)).plain;
  if (model.tree && before.parent_id !== null) {
    const parents = await unpublishedAncestors(tx.db, id);
    if (parents.length > 0 && !options.recursive)
      throw new DomainError(
        'UNPUBLISHED_PARENT',
        `record ${id} has unpublished parent records; publish them first or send recursive=true`,
        { parent_ids: parents },
      );
    await options.gate?.(tx, parents);
    for (const parent of parents)
      await publishInTransaction(tx, parent, undefined, { gate: options.gate });
  }
  const validity = { locales, allLocalesRequired: model.all_locales_required };
  if (held) {
    const issues = selectedIssues(fields, before.item_values, validity, held);
    if (issues.length > 0) throw new ValidationFailed('Item', issues);
  } else if (!before.current_valid)
    // An invalid record cannot be published: checking it names what is wrong.
    await checkItemValues(
      tx.db,
      {
        model,
        fields,
        locales,
        itemId: id,
        attributes: byApiKey(fields, before.item_values),
      },
      [],
    );
  const { snapshots, schema } = await currentSnapshots(tx.db, [
    { id, values: before.item_values, fields },
  ]);
  const current = snapshots[0] ?? {};
  // The published values hold their blocks inline, as they are now (migration 0007).
  const published = held
    ? publishSelected(fields, current, before.published_values, held, locales)
    : current;
  // A role limited to some content (localization_scope) may publish only those values.
  await options.gate?.(tx, [id], () => publishedChanges(fields, before, published));
  const whole = isDeepStrictEqual(published, current);
  const now = new Date();
  const changes = {
    current_valid: held ? before.current_valid : true,
    published_valid: whole ? true : snapshotValid(fields, published, validity),
    published_version_id: before.current_version_id,
    status: whole ? ('published' as const) : ('updated' as const),
    published_at: now,
    first_published_at: before.first_published_at ?? now,
  };
  // The record's update is the change's last write: its event's statement carries it.
  const update = tx.db
    .updateTable('items')
    .set({ ...changes, published_values: JSON.stringify(published) })
    .where('id', '=', id);
  const row: StoredItem = { ...before, ...changes, published_values: published };
  // Publishing leaves the current values and their blocks as they were.
  const snapshot = fields.some(holdsBlocks) ? { values: current, schema } : undefined;
  const entity = eventEntityOf(row, model, fields, snapshot);
  const previous = eventEntityOf(before, model, fields, snapshot);
  await emitItemEvent(tx, state, 'publish', entity, previous, creator, { writes: [update] });
  return entity.plain;
}

/**
 * Which values of the published version publishing or withdrawing changes, from what was
 * published to `published` (null: nothing), as an update's are judged.
 */
function publishedChanges(
  fields: readonly ItemField[],
  before: StoredItem,
  published: Record<string, unknown> | null,
): ContentPart[] {
  const placement = { parent_id: before.parent_id, position: before.position };
  return changedContent(
    fields,
    { values: before.published_values ?? {}, ...placement },
    { values: published ?? {}, ...placement },
  );
}

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
