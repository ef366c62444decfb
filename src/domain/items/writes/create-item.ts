import type { Scope, ScopedTransaction } from '../../../db/environment-scope.ts';
import type { UnreadWrite } from '../../../db/query/carried-writes.ts';
import { executePrepared } from '../../../db/query/prepared.ts';
import type { CallerToken } from '../../actor.ts';
import { DomainError, Issues, NotFound, ValidationFailed } from '../../errors.ts';
import { generateId } from '../../ids.ts';
import { checkNewId } from '../../new-ids.ts';
import { placeNewRecord } from '../../positions/record-positions.ts';
import { initialStage } from '../../schema/stages.ts';
import type { NewRecordGate } from '../access/record-gate.ts';
import { givenContent } from '../content-changes.ts';
import { callerAsCreator } from '../creator.ts';
import { eventEntityOf } from '../event-entities.ts';
import { contextOf, type StoredItem } from '../record-context.ts';
import { emitItemEvent } from '../record-events.ts';
import { type ItemInput, splitAttributes } from '../record-input.ts';
import type { RecordView } from '../record-view.ts';
import { runChange } from './change-runner.ts';
import { excludeNewRecordId, excludePlacement, excludeSingleton } from './record-exclusion.ts';
import {
  checkParent,
  checkParentExists,
  nextPosition,
  sentPositionOf,
} from './record-placement.ts';
import { checkedValues, versionWrites } from './saved-values.ts';
import { withSingletonItem } from './singleton-state.ts';

/** `gate` judges the values the record is given, for a role limited to some content. */
export async function createItem(
  scope: Scope,
  caller: CallerToken | null,
  input: ItemInput,
  options: { validateOnly?: boolean; gate?: NewRecordGate } = {},
): Promise<RecordView> {
  return runChange(scope, options.validateOnly ?? false, (tx) =>
    createInTransaction(tx, caller, input, options.gate),
  );
}

/**
 * A create inside the caller's record change (a duplicate reads its original in it too).
 * The caller's token becomes the record's creator.
 */
export async function createInTransaction(
  tx: ScopedTransaction,
  caller: CallerToken | null,
  input: ItemInput,
  gate?: NewRecordGate,
): Promise<RecordView> {
  const trx = tx.db;
  const creatorId = caller?.id ?? null;
  if (input.itemType === undefined)
    throw new ValidationFailed('Item', [
      { field: 'item_type', code: 'VALIDATION_REQUIRED', message: 'is required' },
    ]);
  const context = await contextOf(tx, input.itemType);
  if (!context) throw new NotFound('Item type', input.itemType);
  const { model, fields, locales } = context;
  const issues = new Issues('Item');
  if (model.modular_block)
    issues.add(
      'item_type',
      'VALIDATION_INVALID',
      'a block model cannot have records of its own: blocks live inside a field',
    );
  await excludeNewRecordId(trx, input.id);
  await checkNewId(trx, issues, 'id', input.id, 'items');
  const parentId = checkParent(issues, model, input.attributes.parent_id);
  const sentPosition = sentPositionOf(issues, model, input.attributes);
  issues.throwIfAny();
  await excludeSingleton(trx, model);
  await excludePlacement(trx, model);
  if (model.singleton) {
    const existing = await trx
      .selectFrom('items')
      .select('id')
      .where('item_type_id', '=', model.id)
      .executeTakeFirst();
    if (existing)
      throw new DomainError(
        'ITEM_TYPE_IS_SINGLETON',
        `Model "${model.api_key}" is a singleton and already has its record`,
        { item_type_id: model.id, item_id: existing.id },
      );
  }
  const id = input.id ?? generateId();
  await checkParentExists(trx, issues, model, parentId, id);
  issues.throwIfAny();
  const { values: sent, unknownKeys } = splitAttributes(fields, input.attributes);
  // A role limited to some content (localization_scope) may give only those values.
  gate?.(tx, model, () =>
    givenContent(fields, sent, { parent_id: parentId, position: sentPosition }),
  );
  // Omitted fields take their default value.
  const attributes = Object.fromEntries(
    fields.map((field) => [
      field.api_key,
      Object.hasOwn(sent, field.api_key) ? sent[field.api_key] : field.default_value,
    ]),
  );
  // The omitted fields' defaults follow the locales the sent values give the record.
  const defaulted = new Set(
    fields.filter((field) => !Object.hasOwn(sent, field.api_key)).map((field) => field.api_key),
  );
  const { blocks, values, snapshot, json, snapshotJson } = await checkedValues(
    trx,
    { model, fields, locales, itemId: id, attributes, defaulted },
    unknownKeys,
  );
  const published = !model.draft_mode_active;
  const versionId = generateId();
  const now = new Date();
  if (sentPosition !== undefined)
    await placeNewRecord(trx, model, id, { parentId, position: sentPosition });
  const position = sentPosition ?? (await nextPosition(trx, model, parentId));
  const row: StoredItem = {
    id,
    item_type_id: model.id,
    creator_id: creatorId,
    item_values: values,
    published_values: published ? snapshot : null,
    status: published ? 'published' : 'draft',
    current_version_id: versionId,
    published_version_id: published ? versionId : null,
    parent_id: parentId,
    position,
    created_at: now,
    updated_at: now,
    published_at: published ? now : null,
    first_published_at: published ? now : null,
    // The values were just validated against the schema as it is.
    current_valid: true,
    published_valid: true,
    publication_scheduled_at: null,
    unpublishing_scheduled_at: null,
    stage: await initialStage(trx, model.workflow_id),
  };
  // The row and its first version name each other: they are written in one statement, at
  // whose end each one's foreign key is checked.
  const { version, parts } = versionWrites(trx, row, snapshot, creatorId);
  const stored = { ...row, item_values: json, published_values: published ? snapshotJson : null };
  // The parts name the record: they go in the event's statement, after its row.
  const writes: UnreadWrite[] = [];
  if (blocks) {
    // The blocks name the record: its row goes first, then they do, then the event.
    await executePrepared(
      trx,
      trx
        .with('version', (db) => db.insertInto('item_versions').values(version))
        .insertInto('items')
        .values(stored),
    );
    await blocks.commit(trx, fields, values);
  } else {
    writes.push(
      trx.insertInto('item_versions').values(version),
      trx.insertInto('items').values(stored),
    );
  }
  writes.push(...parts);
  let state = context.state;
  if (model.singleton) {
    writes.push(
      trx
        .updateTable('item_types')
        .set({ singleton_item_id: id, has_singleton_item: true })
        .where('id', '=', model.id),
    );
    state = withSingletonItem(state, id);
  }
  const entity = eventEntityOf(
    row,
    model,
    fields,
    blocks && { values: snapshot, schema: blocks.schema },
  );
  // What is left to write goes in the event's statement: the record is new, so nothing the
  // event reads first (its tree meta: the records naming it as parent) can see it.
  await emitItemEvent(tx, state, 'create', entity, undefined, callerAsCreator(caller), {
    writes,
  });
  return entity.plain;
}
