import { isDeepStrictEqual } from 'node:util';
import type { Scope, ScopedTransaction } from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../../db/environment-transaction.ts';
import { DomainError, ValidationFailed } from '../../errors.ts';
import { currentSnapshots } from '../blocks/block-snapshots.ts';
import { holdsBlocks } from '../blocks/block-values.ts';
import { eventEntityOf, storedSnapshot } from '../event-entities.ts';
import { findRecordOrFail } from '../find-item.ts';
import {
  type ContentSelection,
  localesOf,
  publishSelected,
  selectedIssues,
  snapshotValid,
} from '../locale-content.ts';
import type { ItemField } from '../model-fields.ts';
import type { StoredItem } from '../record-context.ts';
import { emitItemEvent } from '../record-events.ts';
import { byApiKey } from '../record-input.ts';
import type { RecordView } from '../record-view.ts';
import { checkItemValues } from '../values.ts';
import { checkLocalesExist, publishedChanges, type TreeOptions } from './publication-rules.ts';
import { unpublishedAncestors } from './tree-publishing.ts';

export { type ContentSelection, contentSelectionOf } from '../locale-content.ts';

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
