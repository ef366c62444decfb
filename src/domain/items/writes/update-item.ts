import type { Scope } from '../../../db/environment-scope.ts';
import { DomainError, Issues, ValidationFailed } from '../../errors.ts';
import { generateId } from '../../ids.ts';
import { moveRecord } from '../../positions/record-positions.ts';
import type { RecordGate } from '../access/record-gate.ts';
import { changedContent } from '../content-changes.ts';
import { eventEntityOf } from '../event-entities.ts';
import { findRecordOrFail } from '../find-item.ts';
import type { StoredItem } from '../record-context.ts';
import { emitItemEvent } from '../record-events.ts';
import { byApiKey, type ItemInput, splitAttributes } from '../record-input.ts';
import type { RecordView } from '../record-view.ts';
import { runChange } from './change-runner.ts';
import { excludePlacement } from './record-exclusion.ts';
import {
  checkParent,
  checkParentExists,
  nextPosition,
  sentPositionOf,
} from './record-placement.ts';
import { checkedValues, versionWrites } from './saved-values.ts';

export async function updateItem(
  scope: Scope,
  editorId: string | null,
  id: string,
  input: ItemInput,
  options: { validateOnly?: boolean; gate?: RecordGate } = {},
): Promise<RecordView> {
  return runChange(scope, options.validateOnly ?? false, async (tx) => {
    const trx = tx.db;
    const {
      row: before,
      context: { model, fields, locales, state },
      creator,
    } = await findRecordOrFail(tx, id);
    // The caller's permission, judged on the record as the transaction finds it.
    await options.gate?.(tx, [id]);
    if (
      input.meta.current_version !== undefined &&
      input.meta.current_version !== before.current_version_id
    )
      throw new DomainError(
        'STALE_ITEM_VERSION',
        'The record was changed since the version this update names',
        { current_version: before.current_version_id },
      );
    if (
      input.itemType !== undefined &&
      input.itemType !== model.id &&
      input.itemType !== model.api_key
    )
      throw new ValidationFailed('Item', [
        {
          field: 'item_type',
          code: 'VALIDATION_INVALID',
          message: "a record's model cannot change",
        },
      ]);
    const issues = new Issues('Item');
    const parentSent = Object.hasOwn(input.attributes, 'parent_id');
    const parentId = parentSent
      ? checkParent(issues, model, input.attributes.parent_id)
      : before.parent_id;
    await checkParentExists(trx, issues, model, parentId, id);
    const sentPosition = sentPositionOf(issues, model, input.attributes);
    issues.throwIfAny();
    const { values: sent, unknownKeys } = splitAttributes(fields, input.attributes);
    // Partial update: omitted fields keep their stored values.
    const attributes = { ...byApiKey(fields, before.item_values), ...sent };
    const { blocks, values, snapshot, json, snapshotJson } = await checkedValues(
      trx,
      { model, fields, locales, itemId: id, attributes, sent: new Set(Object.keys(sent)) },
      unknownKeys,
    );
    const published = !model.draft_mode_active;
    const versionId = generateId();
    const now = new Date();
    // A record given another parent without a position goes last among its new siblings.
    const parentChanged = parentId !== before.parent_id;
    if (sentPosition !== undefined || parentChanged) await excludePlacement(trx, model);
    const position =
      sentPosition ?? (parentChanged ? await nextPosition(trx, model, parentId) : before.position);
    if (sentPosition !== undefined || parentChanged)
      await moveRecord(
        trx,
        model,
        id,
        { parentId: before.parent_id, position: before.position },
        { parentId, position },
      );
    // A role limited to some content (localization_scope) may change only those values.
    await options.gate?.(tx, [id], () =>
      changedContent(
        fields,
        {
          values: blocks ? blocks.storedSnapshot(fields, before.item_values) : before.item_values,
          parent_id: before.parent_id,
          position: before.position,
        },
        { values: snapshot, parent_id: parentId, position },
      ),
    );
    const changes = {
      current_version_id: versionId,
      updated_at: now,
      parent_id: parentId,
      position,
      // The values were just validated against the schema as it is.
      current_valid: true,
      ...(published
        ? {
            published_version_id: versionId,
            published_valid: true,
            status: 'published' as const,
            published_at: now,
            first_published_at: before.first_published_at ?? now,
          }
        : { status: before.status === 'draft' ? ('draft' as const) : ('updated' as const) }),
    };
    const row: StoredItem = {
      ...before,
      ...changes,
      item_values: values,
      ...(published ? { published_values: snapshot } : {}),
    };
    // The blocks first: the record's row and its version are the change's last writes,
    // which its event's statement carries (nothing reads them before it).
    await blocks?.commit(trx, fields, values);
    const { version, parts } = versionWrites(trx, row, snapshot, editorId);
    const update = trx
      .updateTable('items')
      .set({
        ...changes,
        item_values: json,
        ...(published ? { published_values: snapshotJson } : {}),
      })
      .where('id', '=', id);
    // The previous record's blocks as stored before this write replaced them.
    const previous = eventEntityOf(
      before,
      model,
      fields,
      blocks && {
        values: blocks.storedSnapshot(fields, before.item_values),
        schema: blocks.schema,
      },
    );
    const entity = eventEntityOf(
      row,
      model,
      fields,
      blocks && { values: snapshot, schema: blocks.schema },
    );
    await emitItemEvent(tx, state, 'update', entity, previous, creator, {
      writes: [trx.insertInto('item_versions').values(version), update, ...parts],
    });
    return entity.plain;
  });
}
