import { type Expression, type ExpressionBuilder, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { EnvQueryable, Scope, ScopedTransaction } from '../../db/environment-scope.ts';
import { executePrepared, preparedShape } from '../../db/query/prepared.ts';
import type { EnvironmentDatabase, ItemRow, ItemTypeRow } from '../../db/schema.ts';
import type { TokenView } from '../actor.ts';
import { cachedRecordRead, cachedSchemaRead, readsSchemaCache } from '../caches/caches.ts';
import { NotFound } from '../errors.ts';
import type { FieldSummary, ModelState } from '../schema/model-state.ts';
import { creatorColumn, creatorOf } from './creator.ts';
import { ITEM_FIELD_COLUMNS, type ItemField } from './model-fields.ts';

/**
 * Everything a record read or write needs of its model, loaded with the model in one
 * statement (a record write is a few statements, so each round trip counts): the model
 * and its fields and fieldsets (the model's presentation, for events), the fields as
 * records read them (validation and presentation) and the environment's locales.
 */
export type RecordContext = {
  model: ItemTypeRow;
  fields: (ItemField & FieldSummary)[];
  locales: string[];
  /** The model as the item-type API presents it (see presentModel). */
  state: ModelState;
};

type ContextColumns = {
  model: Omit<ItemTypeRow, 'created_at'> & { created_at: string };
  fields: (ItemField & FieldSummary)[];
  fieldsets: ModelState['fieldsets'];
  locales: string[];
};

/** The context's columns, for the model whose id `modelId` gives. */
function contextColumns<DB, T extends keyof DB>(
  eb: ExpressionBuilder<DB, T>,
  modelId: Expression<string>,
) {
  // The subqueries read other tables than the outer query's.
  const db = eb as unknown as ExpressionBuilder<EnvironmentDatabase, never>;
  return [
    db
      .selectFrom('item_types')
      .select(sql<ContextColumns['model']>`row_to_json(item_types.*)`.as('model'))
      .where('item_types.id', '=', modelId)
      .as('model'),
    jsonArrayFrom(
      db
        .selectFrom('fields')
        .select([...ITEM_FIELD_COLUMNS, 'fieldset_id', 'position'])
        .where('fields.item_type_id', '=', modelId)
        .orderBy('position')
        .orderBy('seq'),
    ).as('fields'),
    jsonArrayFrom(
      db
        .selectFrom('fieldsets')
        .select(['id', 'item_type_id', 'position'])
        .where('fieldsets.item_type_id', '=', modelId)
        .orderBy('position')
        .orderBy('seq'),
    ).as('fieldsets'),
    db.selectFrom('site_settings').select('locales').as('locales'),
  ] as const;
}

function toContext(columns: {
  model: ContextColumns['model'] | null;
  fields: unknown;
  fieldsets: unknown;
  locales: string[] | null;
}): RecordContext | undefined {
  if (!columns.model) return undefined;
  // row_to_json gives the timestamp as text; everything else has its column's type.
  const model: ItemTypeRow = { ...columns.model, created_at: new Date(columns.model.created_at) };
  const fields = columns.fields as ContextColumns['fields'];
  const fieldsets = columns.fieldsets as ContextColumns['fieldsets'];
  return {
    model,
    fields,
    locales: columns.locales ?? [],
    state: { itemType: model, fields, fieldsets },
  };
}

/** A record's row as writes read it: every column but the list order. */
export type StoredItem = Omit<ItemRow, 'seq'>;

// Named, not `items.*`: the statements are prepared (see executePrepared).
const ITEM_COLUMNS = [
  'items.id',
  'items.item_type_id',
  'items.creator_id',
  'items.item_values',
  'items.published_values',
  'items.status',
  'items.current_version_id',
  'items.published_version_id',
  'items.parent_id',
  'items.position',
  'items.created_at',
  'items.updated_at',
  'items.published_at',
  'items.first_published_at',
  'items.current_valid',
  'items.published_valid',
  'items.publication_scheduled_at',
  'items.unpublishing_scheduled_at',
  'items.stage',
] as const;

/** The context of the model with this id or api_key (an id wins over an api_key). */
export async function modelContext(
  db: EnvQueryable,
  idOrApiKey: string,
): Promise<RecordContext | undefined> {
  const [row] = await executePrepared(
    db,
    db
      .selectFrom('item_types as named')
      .select((eb) => contextColumns(eb, eb.ref('named.id')))
      .where((eb) => eb.or([eb('named.id', '=', idOrApiKey), eb('named.api_key', '=', idOrApiKey)]))
      .orderBy(sql`named.id = ${idOrApiKey}`, 'desc')
      .limit(1),
  );
  return row ? toContext(row) : undefined;
}

/** A record's row and its model's context, in one statement. */
export async function recordWithContext(
  db: EnvQueryable,
  id: string,
): Promise<{ row: StoredItem; context: RecordContext } | undefined> {
  const [found] = await executePrepared(
    db,
    db
      .selectFrom('items')
      .select(ITEM_COLUMNS)
      .select((eb) => contextColumns(eb, eb.ref('items.item_type_id')))
      .where('items.id', '=', id),
  );
  if (!found) return undefined;
  const { model, fields, fieldsets, locales, ...row } = found;
  const context = toContext({ model, fields, fieldsets, locales });
  if (!context) throw new Error(`record ${id} has no model`);
  return { row, context };
}

/**
 * The context of the model with this id or api_key for a request or a record write: from
 * the schema cache at the scope's version (no statement when kept), else loaded.
 */
export async function contextOf(
  scope: Scope | ScopedTransaction,
  idOrApiKey: string,
): Promise<RecordContext | undefined> {
  if (!readsSchemaCache(scope)) return modelContext(scope.db, idOrApiKey);
  try {
    // Kept under each key it is asked by: an id and an api_key name the same context.
    return await cachedSchemaRead(scope, `context:${idOrApiKey}`, async () => {
      const found = await modelContext(scope.db, idOrApiKey);
      if (!found) throw new NoSuchModel();
      return found;
    });
  } catch (error) {
    if (error instanceof NoSuchModel) return undefined;
    throw error;
  }
}

/** A missing model, thrown out of a cached load so that nothing is kept. */
class NoSuchModel extends Error {}

// Built and compiled once per schema: the statement behind every record read by id.
const recordById = preparedShape((db: EnvQueryable, id: string) =>
  db
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    // What the values take as JSON text, as they are held once read: the record cache
    // keeps only small records. (The stored size would understate values the database
    // compresses, so a large but repetitive record would be kept.)
    .select(
      sql<string>`octet_length(item_values::text) + coalesce(octet_length(published_values::text), 0)`.as(
        'json_bytes',
      ),
    )
    // The row's version (environment migration 0020): the same stamp, the same row.
    .select(sql<string>`stamp::text`.as('stamp'))
    .where('items.id', '=', id),
);

async function readRecord(
  db: EnvQueryable,
  id: string,
): Promise<{ row: StoredItem; bytes: number; stamp: string } | undefined> {
  const [found] = await recordById(db, id);
  if (!found) return undefined;
  const { json_bytes, stamp, ...row } = found;
  return { row, bytes: Number(json_bytes), stamp };
}

/**
 * A record and its model's context for a read (a change reads the record it changes with
 * its creator: recordToChange): the row alone (which a request may find kept at its
 * records version: cachedRecordRead), then the context from the schema cache at the
 * scope's version (no statement when kept). Without a version, both in one statement.
 * Inside a change, the row is read without a lock: the record a change writes is read
 * by `recordToChange`, which locks it.
 */
export async function recordAndContext(
  scope: Scope | ScopedTransaction,
  id: string,
): Promise<{ row: StoredItem; context: RecordContext } | undefined> {
  if (!readsSchemaCache(scope)) return recordWithContext(scope.db, id);
  const row = await cachedRecordRead(scope, id, () => readRecord(scope.db, id));
  if (!row) return undefined;
  const context = await contextOf(scope, row.item_type_id);
  // The model (and the record with it) was deleted since the row was read.
  if (!context) throw new NotFound('Item', id);
  return { row, context };
}

// Built and compiled once per schema: the first read of every change of a record.
const recordToChangeById = preparedShape((db: EnvQueryable, id: string) =>
  db
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    .select((eb) => creatorColumn(eb.ref('items.creator_id')))
    .where('items.id', '=', id)
    // Record changes run concurrently (RECORD_CHANGE): a second change of this record
    // waits here for the first to commit, then reads what it wrote.
    .forUpdate('items'),
);

/**
 * The record a change reads first, with its creator's token in the same statement (the
 * change's event names it, creator.ts), then its model's context (contextOf: from the
 * schema cache in a record change). The change's writes need not bring the creator back,
 * so they may go in the event's statement (emitEvent's LastWrites).
 */
export async function recordToChange(
  tx: ScopedTransaction,
  id: string,
): Promise<{ row: StoredItem; context: RecordContext; creator: TokenView | null } | undefined> {
  const [found] = await recordToChangeById(tx.db, id);
  if (!found) return undefined;
  const { creator, ...row } = found;
  const context = await contextOf(tx, row.item_type_id);
  // The model (and the record with it) was deleted since the row was read.
  if (!context) throw new NotFound('Item', id);
  return { row, context, creator: creatorOf(creator) };
}
