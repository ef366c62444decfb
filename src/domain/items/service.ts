import { sql } from 'kysely';
import {
  type EnvQueryable,
  type EnvTrx,
  inEnvironmentTransaction,
  RECORD_CHANGE,
  type Scope,
  type ScopedTransaction,
} from '../../db/environment-scope.ts';
import type { UnreadWrite } from '../../db/query/carried-writes.ts';
import { executePrepared } from '../../db/query/prepared.ts';
import type { ItemRow, ItemTypeRow } from '../../db/schema.ts';
import { emitEvent, type LastWrites } from '../../events/outbox.ts';
import type { CallerToken, TokenView } from '../actor.ts';
import { viewedOnce } from '../caches/caches.ts';
import { DomainError, Issues, NotFound, ValidationFailed } from '../errors.ts';
import { generateId } from '../ids.ts';
import { MAX_POSITION } from '../limits.ts';
import { checkNewId } from '../new-ids.ts';
import { moveRecord, placeNewRecord, removeRecord } from '../positions/record-positions.ts';
import { loadModelState, type ModelState, modelView } from '../schema/model-state.ts';
import { initialStage } from '../schema/stages.ts';
import type { NewRecordGate, RecordGate } from './access/record-gate.ts';
import { valuesToShow } from './blocks/block-snapshots.ts';
import { BlockSession } from './blocks/blocks.ts';
import { changedContent, givenContent } from './content-changes.ts';
import { callerAsCreator, lookUpCreator } from './creator.ts';
import { type EventEntity, eventEntityOf, storedSnapshot } from './event-entities.ts';
import type { ItemField } from './model-fields.ts';
import { contextOf, recordAndContext, recordToChange, type StoredItem } from './record-context.ts';
import { excludeNewRecordId, excludePlacement, excludeSingleton } from './record-exclusion.ts';
import { type RecordView, recordView, withTreeMeta } from './record-view.ts';
import { checkItemValues, type ValuesToCheck } from './values.ts';
import {
  insertParts,
  type StoredVersionValues,
  storedVersionValues,
} from './versions/version-store.ts';

export type ItemInput = {
  id?: string;
  /** Model id or api_key (required on create; on update it must name the record's model). */
  itemType?: string;
  attributes: Record<string, unknown>;
  meta: { current_version?: string };
};

/** The record's values by api_key (what the registry checks), from values by field id. */
export function byApiKey(fields: readonly ItemField[], values: Record<string, unknown>) {
  return Object.fromEntries(fields.map((field) => [field.api_key, values[field.id] ?? null]));
}

/** Attributes that are not values of fields: tree and sortable placement. */
const PLACEMENT_KEYS = ['parent_id', 'position'];

function splitAttributes(fields: readonly ItemField[], attributes: Record<string, unknown>) {
  const apiKeys = new Set(fields.map((field) => field.api_key));
  const values: Record<string, unknown> = {};
  const unknownKeys: string[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (apiKeys.has(key)) values[key] = value;
    else if (!PLACEMENT_KEYS.includes(key)) unknownKeys.push(key);
  }
  return { values, unknownKeys };
}

export async function findRow(db: EnvQueryable, id: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The views an event entity holds: plain, and nested when its model holds blocks. */
function views(entity: EventEntity | undefined): RecordView[] {
  if (!entity) return [];
  return entity.nested ? [entity.plain, entity.nested] : [entity.plain];
}

/**
 * Emits a record event whose related entities are the record's relationships, as DatoCMS
 * sends them: its model as it is after the change, then its creator.
 * The model is given by its state when the change holds it already (no read), else by id;
 * the creator likewise, when the change read it (creator.ts), else it is looked up.
 * A record whose model holds blocks is also recorded nested (see eventEntity). `last`:
 * the change's last writes, which the event's statement carries (emitEvent).
 */
export async function emitItemEvent(
  tx: ScopedTransaction,
  model: ModelState | string,
  eventType: 'create' | 'update' | 'delete' | 'publish' | 'unpublish',
  entity: EventEntity,
  previousEntity?: EventEntity,
  creator?: TokenView | null,
  last?: LastWrites,
): Promise<void> {
  // The entity is also what the write answers: its tree meta is filled once, here. It
  // reads the records naming these as parent, which `last` (written after) cannot change:
  // a record is never its own parent.
  await withTreeMeta(tx.db, [entity, previousEntity].flatMap(views));
  await emitEvent(
    tx,
    {
      entityType: 'item',
      eventType,
      record: entity.plain,
      previous: previousEntity?.plain ?? null,
      ...(entity.nested
        ? { nested: entity.nested, nestedPrevious: previousEntity?.nested ?? null }
        : {}),
      model: modelView(typeof model === 'string' ? await loadModelState(tx.db, model) : model),
      creator:
        creator === undefined
          ? await lookUpCreator(tx.project, entity.plain.row.creator_id)
          : creator,
    },
    last,
  );
}

/**
 * A create's or update's values, checked (blocks sent inline resolved through the record's
 * block session) and in the shapes they are stored: the current values (blocks by id), and
 * the snapshot that versions and published values hold (blocks inline, migration 0007),
 * each serialised once for the statement that writes the row and its version.
 */
async function checkedValues(
  trx: EnvTrx,
  input: Omit<ValuesToCheck, 'blocks'>,
  unknownKeys: readonly string[],
) {
  const blocks = await BlockSession.open(trx, input.itemId, input.fields, input.locales);
  const values = await checkItemValues(trx, { ...input, blocks }, unknownKeys);
  const snapshot = blocks ? blocks.snapshot(input.fields, values) : values;
  const json = JSON.stringify(values);
  return { blocks, values, snapshot, json, snapshotJson: blocks ? JSON.stringify(snapshot) : json };
}

/** The version row a write inserts, its values stored compactly (version-store.ts). */
function versionRow(
  row: Pick<ItemRow, 'id' | 'item_type_id' | 'current_version_id'>,
  stored: StoredVersionValues,
  editorId: string | null,
) {
  return {
    id: row.current_version_id,
    item_id: row.id,
    item_type_id: row.item_type_id,
    editor_id: editorId,
    item_values: stored.item_values,
    value_refs: stored.value_refs,
    part_hashes: stored.part_hashes,
  };
}

/** A save's version and the parts of its values the record does not have yet. */
function versionWrites(
  trx: EnvTrx,
  row: Pick<ItemRow, 'id' | 'item_type_id' | 'current_version_id'>,
  snapshot: Record<string, unknown>,
  editorId: string | null,
) {
  const stored = storedVersionValues(snapshot);
  const parts = insertParts(trx, row.id, stored);
  return { version: versionRow(row, stored, editorId), parts: parts ? [parts] : [] };
}

/** A record to change, its context and its creator (recordToChange), or NotFound. */
export async function findRecordOrFail(tx: ScopedTransaction, id: string) {
  const found = await recordToChange(tx, id);
  if (!found) throw new NotFound('Item', id);
  return found;
}

/** The model state after its singleton record was set (an id) or removed (null). */
function withSingletonItem(state: ModelState, itemId: string | null): ModelState {
  const itemType = { ...state.itemType, singleton_item_id: itemId, has_singleton_item: !!itemId };
  return { ...state, itemType };
}

export async function findItem(
  scope: Scope,
  id: string,
  options: { version?: string; nested?: boolean } = {},
): Promise<RecordView> {
  const found = await recordAndContext(scope, id);
  if (!found) throw new NotFound('Item', id);
  const {
    row,
    context: { model, fields },
  } = found;
  const published = options.version === 'published';
  if (published && row.published_values === null)
    throw new NotFound('Published version of item', id);
  const nested = options.nested ?? false;
  const view = async () => {
    const [shown] = await valuesToShow(scope.db, [{ ...row, fields }], { published, nested });
    return withTreeMeta(scope.db, recordView(row, model, fields, shown?.values, shown?.blocks));
  };
  // With its blocks inline a record is as large as its blocks make it: never kept. Without,
  // it is about the size of the row, which the record cache keeps only when small.
  if (nested) return view();
  return viewedOnce(scope, row, published ? 'published' : 'current', view);
}

/** Position for a new record of a sortable or tree model: after its siblings. */
async function nextPosition(trx: EnvTrx, model: ItemTypeRow, parentId: string | null) {
  if (!model.sortable && !model.tree) return null;
  let query = trx
    .selectFrom('items')
    .select(sql<number>`coalesce(max(position), 0) + 1`.as('next'))
    .where('item_type_id', '=', model.id);
  if (model.tree)
    query =
      parentId === null
        ? query.where('parent_id', 'is', null)
        : query.where('parent_id', '=', parentId);
  const { next } = await query.executeTakeFirstOrThrow();
  return Number(next);
}

/**
 * The position a write places a record of a sortable or tree model at, when it sends one:
 * an integer from 0, kept as sent like a field's (MAX_POSITION keeps its shifts in an
 * int4). Other models' records have no position: one sent is ignored.
 */
function sentPositionOf(
  issues: Issues,
  model: ItemTypeRow,
  attributes: Record<string, unknown>,
): number | undefined {
  const value = attributes.position;
  if (!(model.sortable || model.tree) || value === undefined || value === null) return undefined;
  if (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_POSITION)
    return value as number;
  issues.add('position', 'VALIDATION_INVALID', `must be an integer from 0 to ${MAX_POSITION}`);
  return undefined;
}

function checkParent(issues: Issues, model: ItemTypeRow, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!model.tree) {
    issues.add('parent_id', 'VALIDATION_INVALID', 'only records of tree models have a parent');
    return null;
  }
  if (typeof value !== 'string') issues.add('parent_id', 'VALIDATION_INVALID', 'must be an id');
  return typeof value === 'string' ? value : null;
}

async function checkParentExists(
  trx: EnvTrx,
  issues: Issues,
  model: ItemTypeRow,
  parentId: string | null,
  selfId: string,
) {
  if (parentId === null) return;
  const parent = await findRow(trx, parentId);
  if (!parent || parent.item_type_id !== model.id || parent.id === selfId)
    issues.add('parent_id', 'VALIDATION_INVALID', 'must be another record of the same model');
}

/** Ends a validate-only change: everything it wrote is rolled back. */
class ValidatedOnly extends Error {
  constructor(readonly entity: RecordView) {
    super('validated only');
  }
}

/**
 * Runs a record change; with `validateOnly` it runs every check and write of the change,
 * then rolls it all back (the validate endpoints): the checks cannot drift from the writes.
 */
async function runChange(
  scope: Scope,
  validateOnly: boolean,
  fn: (tx: ScopedTransaction) => Promise<RecordView>,
): Promise<RecordView> {
  try {
    return await inEnvironmentTransaction(
      scope,
      async (tx) => {
        const entity = await fn(tx);
        if (validateOnly) throw new ValidatedOnly(entity);
        return entity;
      },
      RECORD_CHANGE,
    );
  } catch (error) {
    if (error instanceof ValidatedOnly) return error.entity;
    throw error;
  }
}

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

export async function destroyItem(
  scope: Scope,
  id: string,
  gate?: RecordGate,
): Promise<RecordView> {
  return inEnvironmentTransaction(
    scope,
    async (tx) => {
      const trx = tx.db;
      const {
        row,
        context: { model, fields, state: stateBefore },
        creator,
      } = await findRecordOrFail(tx, id);
      // The caller's permission, judged on the record as the transaction finds it.
      await gate?.(tx, [id]);
      let state = stateBefore;
      const snapshot = await storedSnapshot(trx, row, fields);
      await excludeSingleton(trx, model);
      await excludePlacement(trx, model);
      if (model.sortable || model.tree)
        await removeRecord(trx, model, id, { parentId: row.parent_id, position: row.position });
      // The delete (which takes the record's versions and blocks with it) is the change's
      // last write, with its singleton model's update: its event's statement carries them.
      // What the event reads first is unchanged by them: the records naming this one as
      // parent keep naming it (a parent is no foreign key).
      const writes: UnreadWrite[] = [trx.deleteFrom('items').where('id', '=', id)];
      // The model as the schema cache holds it may predate its singleton record's create,
      // committed since this change began (record changes run concurrently): the update
      // names the record itself.
      if (model.singleton) {
        writes.push(
          trx
            .updateTable('item_types')
            .set({ singleton_item_id: null, has_singleton_item: false })
            .where('id', '=', model.id)
            .where('singleton_item_id', '=', id),
        );
        state = withSingletonItem(state, null);
      }
      const entity = eventEntityOf(row, model, fields, snapshot);
      await emitItemEvent(tx, state, 'delete', entity, undefined, creator, { writes });
      return entity.plain;
    },
    RECORD_CHANGE,
  );
}
