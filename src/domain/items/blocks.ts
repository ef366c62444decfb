import type { EnvQueryable, EnvTrx } from '../../db/environment-scope.ts';
import type { BlockRow, ItemTypeRow } from '../../db/schema.ts';
import {
  type BlockHoldingField,
  type BlockModelFields,
  type BlockNode,
  type BlockPlace,
  blockIdValues,
  blockRefsOf,
  holdsBlocks,
  isBlockNode,
  mapBlockRefs,
  mapValues,
  nestedValues,
  withoutBlocks,
} from '../../presenters/item-blocks.ts';
import { type FieldIssue, ValidationFailed } from '../errors.ts';
import { blockRefProblem } from '../fields/field-types/block-refs.ts';
import { generateId } from '../ids.ts';
import { fieldsOfModels, type ItemField } from './model-fields.ts';
import { checkItemValues } from './values.ts';

/**
 * Blocks of one record being written (issue 11 §5). A value may name a block by id (kept as
 * it is), by `{id, attributes}` (updated: the attributes sent replace the stored ones) or by
 * `{attributes, relationships.item_type}` (created). Each created or updated block is checked
 * against its block model's fields like a record, blocks in blocks included; an issue inside
 * a block is reported with a `field` path from the record's field down to the block's field
 * (`sections.1.title`, `content.en.0.title`). Blocks of the record no value names any more are
 * deleted by `commit`.
 */

/** Block models and their fields, by block model id. */
export type BlockSchema = ReadonlyMap<string, { model: ItemTypeRow; fields: ItemField[] }>;

export async function loadBlockSchema(db: EnvQueryable): Promise<BlockSchema> {
  const models = await db
    .selectFrom('item_types')
    .selectAll()
    .where('modular_block', '=', true)
    .execute();
  const fields = await fieldsOfModels(
    db,
    models.map((model) => model.id),
  );
  return new Map(models.map((model) => [model.id, { model, fields: fields.get(model.id) ?? [] }]));
}

export function blockModelFields(schema: BlockSchema): BlockModelFields {
  return new Map([...schema].map(([id, { fields }]) => [id, fields]));
}

type BlockWrite = { id: string; item_type_id: string; values: Record<string, unknown> };

function byApiKey(fields: readonly ItemField[], values: Record<string, unknown>) {
  return Object.fromEntries(fields.map((field) => [field.api_key, values[field.id] ?? null]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function modelIdOf(ref: Record<string, unknown>): string | undefined {
  const relationships = ref.relationships;
  if (!isObject(relationships) || !isObject(relationships.item_type)) return undefined;
  const data = relationships.item_type.data;
  return isObject(data) && typeof data.id === 'string' ? data.id : undefined;
}

export class BlockSession {
  private readonly writes = new Map<string, BlockWrite>();
  /** Blocks named by the values being written: a block sits in one place only. */
  private readonly named = new Set<string>();

  private constructor(
    private readonly db: EnvQueryable,
    private readonly itemId: string,
    private readonly locales: readonly string[],
    readonly schema: BlockSchema,
    private readonly stored: ReadonlyMap<string, BlockRow>,
  ) {}

  /** A session for a record of a model with block fields; undefined when it has none. */
  static async open(
    db: EnvQueryable,
    itemId: string,
    fields: readonly ItemField[],
    locales: readonly string[],
  ): Promise<BlockSession | undefined> {
    if (!fields.some(holdsBlocks)) return undefined;
    const [schema, rows] = await Promise.all([
      loadBlockSchema(db),
      db.selectFrom('blocks').selectAll().where('item_id', '=', itemId).execute(),
    ]);
    return new BlockSession(db, itemId, locales, schema, new Map(rows.map((row) => [row.id, row])));
  }

  /** The block model of a block the values name, once resolved by `resolve`. */
  modelOf(id: string): string | undefined {
    return this.writes.get(id)?.item_type_id ?? this.stored.get(id)?.item_type_id;
  }

  private valuesOf(id: string): Record<string, unknown> | undefined {
    return this.writes.get(id)?.values ?? this.stored.get(id)?.item_values;
  }

  /**
   * The values (by api_key) with every block reference replaced by its block's id, checking
   * each created or updated block. Issues go to `issues`; a reference that fails its checks
   * is left as sent (the record's own checks then skip it).
   */
  async resolve(
    fields: readonly ItemField[],
    attributes: Record<string, unknown>,
    issues: FieldIssue[],
  ): Promise<Record<string, unknown>> {
    const out = { ...attributes };
    for (const field of fields) {
      if (!holdsBlocks(field) || !Object.hasOwn(attributes, field.api_key)) continue;
      const ids = new Map<unknown, string>();
      for (const { ref, place } of blockRefsOf(field, attributes[field.api_key])) {
        if (blockRefProblem(ref) !== null) continue; // the record's shape check reports it
        const path = [field.api_key, ...place].join('.');
        const id = await this.resolveOne(ref as string | Record<string, unknown>, path, issues);
        if (id !== null) ids.set(ref, id);
      }
      out[field.api_key] = mapBlockRefs(field, attributes[field.api_key], (ref) =>
        ids.has(ref) ? ids.get(ref) : ref,
      );
    }
    return out;
  }

  private async resolveOne(
    ref: string | Record<string, unknown>,
    path: string,
    issues: FieldIssue[],
  ): Promise<string | null> {
    const refuse = (message: string) => {
      issues.push({ field: path, code: 'VALIDATION_INVALID', message });
      return null;
    };
    const id = typeof ref === 'string' ? ref : (ref.id as string | undefined);
    if (id !== undefined && this.named.has(id))
      return refuse(`names block ${id} a second time: a block sits in one place only`);
    if (id !== undefined) this.named.add(id);
    const stored = id === undefined ? undefined : this.stored.get(id);
    if (id !== undefined && !stored)
      return refuse(`names block ${id}, which is not a block of this record`);
    if (typeof ref === 'string') return ref;
    const modelId = modelIdOf(ref) ?? stored?.item_type_id;
    if (stored && modelId !== stored.item_type_id)
      return refuse(`block ${id} is of block model ${stored.item_type_id}, which cannot change`);
    const blockModel = modelId === undefined ? undefined : this.schema.get(modelId);
    if (!blockModel) return refuse(`names block model ${modelId}, which is not a block model`);
    const { model, fields } = blockModel;
    const blockId = id ?? generateId();
    const sent = ref.attributes as Record<string, unknown>;
    const known = new Set(fields.map((field) => field.api_key));
    const unknownKeys = Object.keys(sent).filter((key) => !known.has(key));
    // An updated block keeps what it does not send; a new one starts from the defaults.
    const base = stored
      ? byApiKey(fields, stored.item_values)
      : Object.fromEntries(fields.map((field) => [field.api_key, field.default_value]));
    const attributes = {
      ...base,
      ...Object.fromEntries(Object.entries(sent).filter(([key]) => known.has(key))),
    };
    try {
      const values = await checkItemValues(
        this.db,
        { model, fields, locales: this.locales, itemId: blockId, attributes, blocks: this },
        unknownKeys,
      );
      this.writes.set(blockId, { id: blockId, item_type_id: model.id, values });
      return blockId;
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      for (const issue of error.issues) issues.push({ ...issue, field: `${path}.${issue.field}` });
      return null;
    }
  }

  /** The blocks the values name, recursively, as a snapshot (for versions and publishing). */
  snapshot(fields: readonly ItemField[], values: Record<string, unknown>): Record<string, unknown> {
    return snapshotValues(fields, values, this.schema, (id) => {
      const write = this.writes.get(id);
      const row = this.stored.get(id);
      const values = this.valuesOf(id);
      const modelId = this.modelOf(id);
      if (!values || !modelId) return undefined;
      const now = new Date().toISOString();
      return {
        id,
        item_type_id: modelId,
        values,
        created_at: row ? new Date(row.created_at).toISOString() : now,
        updated_at: write || !row ? now : new Date(row.updated_at).toISOString(),
      };
    });
  }

  /** Saves the created and updated blocks and deletes the record's blocks no value names. */
  async commit(trx: EnvTrx, fields: readonly ItemField[], values: Record<string, unknown>) {
    const reachable = new Set<string>();
    const visit = (holder: readonly ItemField[], held: Record<string, unknown>) => {
      for (const field of holder)
        for (const { ref } of blockRefsOf(field, held[field.id])) {
          if (typeof ref !== 'string' || reachable.has(ref)) continue;
          reachable.add(ref);
          const modelId = this.modelOf(ref);
          const inner = this.valuesOf(ref);
          if (modelId && inner) visit(this.schema.get(modelId)?.fields ?? [], inner);
        }
    };
    visit(fields, values);
    const now = new Date();
    const inserts = [...this.writes.values()].filter(
      (write) => !this.stored.has(write.id) && reachable.has(write.id),
    );
    if (inserts.length > 0)
      await trx
        .insertInto('blocks')
        .values(
          inserts.map((write) => ({
            id: write.id,
            item_type_id: write.item_type_id,
            item_id: this.itemId,
            item_values: JSON.stringify(write.values),
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    for (const write of this.writes.values())
      if (this.stored.has(write.id))
        await trx
          .updateTable('blocks')
          .set({ item_values: JSON.stringify(write.values), updated_at: now })
          .where('id', '=', write.id)
          .execute();
    const gone = [...this.stored.keys()].filter((id) => !reachable.has(id));
    if (gone.length > 0) await trx.deleteFrom('blocks').where('id', 'in', gone).execute();
  }
}

type NodeOf = (id: string) => BlockNode | undefined;

/** Values with each block id replaced by its block inline (recursively). */
function snapshotValues(
  fields: readonly ItemField[],
  values: Record<string, unknown>,
  schema: BlockSchema,
  nodeOf: NodeOf,
): Record<string, unknown> {
  return mapValues(fields, values, (ref) => {
    const node = typeof ref === 'string' ? nodeOf(ref) : undefined;
    if (!node) return ref;
    const inner = schema.get(node.item_type_id)?.fields ?? [];
    return { ...node, values: snapshotValues(inner, node.values, schema, nodeOf) };
  });
}

/** Stored blocks of these records, by id. */
async function blocksOf(db: EnvQueryable, itemIds: readonly string[]) {
  if (itemIds.length === 0) return new Map<string, BlockRow>();
  const rows = await db.selectFrom('blocks').selectAll().where('item_id', 'in', itemIds).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

function nodeFromRow(row: BlockRow): BlockNode {
  return {
    id: row.id,
    item_type_id: row.item_type_id,
    values: row.item_values,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Snapshots of records' current values (blocks inline), for `?nested=true`, publishing and
 * events: one query for the blocks of all of them.
 */
export async function currentSnapshots(
  db: EnvQueryable,
  records: readonly { id: string; values: Record<string, unknown>; fields: readonly ItemField[] }[],
  schema?: BlockSchema,
): Promise<{ snapshots: Record<string, unknown>[]; schema: BlockSchema }> {
  const holding = records.filter((record) => record.fields.some(holdsBlocks));
  const blockSchema = schema ?? (holding.length > 0 ? await loadBlockSchema(db) : new Map());
  const rows = await blocksOf(
    db,
    holding.map((record) => record.id),
  );
  const nodeOf: NodeOf = (id) => {
    const row = rows.get(id);
    return row ? nodeFromRow(row) : undefined;
  };
  return {
    snapshots: records.map((record) =>
      snapshotValues(record.fields, record.values, blockSchema, nodeOf),
    ),
    schema: blockSchema,
  };
}

/**
 * A snapshot's values as an update request (by api_key), for restoring a version: a block
 * the record still has is updated in place, one it lost is created anew, so the restored
 * record never names a deleted block.
 */
export async function snapshotAsRequest(
  db: EnvQueryable,
  itemId: string,
  fields: readonly ItemField[],
  snapshot: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const holding = fields.some(holdsBlocks);
  const [schema, stored] = holding
    ? await Promise.all([loadBlockSchema(db), blocksOf(db, [itemId])])
    : [new Map() as BlockSchema, new Map<string, BlockRow>()];
  const asRequest = (
    holder: readonly ItemField[],
    values: Record<string, unknown>,
  ): Record<string, unknown> =>
    byApiKey(
      holder,
      mapValues(holder, values, (node: unknown, _place: BlockPlace) => {
        if (!isBlockNode(node)) return node;
        const inner = schema.get(node.item_type_id)?.fields ?? [];
        return {
          type: 'item',
          ...(stored.has(node.id) ? { id: node.id } : {}),
          attributes: asRequest(inner, node.values),
          relationships: { item_type: { data: { type: 'item_type', id: node.item_type_id } } },
        };
      }),
    );
  return asRequest(fields, snapshot);
}

/** How a read presents values: the current or published version, blocks by id or whole. */
export type ValuesRead = { published: boolean; nested: boolean };

/**
 * The values to present for each record (by field id): ids by default, blocks presented whole
 * with `nested` (DatoCMS's `?nested=true`), from the published snapshot when asked.
 */
export async function valuesToPresent(
  db: EnvQueryable,
  records: readonly (Pick<BlockRow, 'id'> & {
    item_values: Record<string, unknown>;
    published_values: Record<string, unknown> | null;
    fields: readonly ItemField[];
  })[],
  read: ValuesRead,
): Promise<Record<string, unknown>[]> {
  if (!read.nested)
    return records.map((record) =>
      read.published
        ? blockIdValues(record.fields, record.published_values ?? {})
        : record.item_values,
    );
  const { snapshots, schema } = read.published
    ? {
        snapshots: records.map((record) => record.published_values ?? {}),
        schema: await loadBlockSchema(db),
      }
    : await currentSnapshots(
        db,
        records.map((record) => ({
          id: record.id,
          values: record.item_values,
          fields: record.fields,
        })),
      );
  const blockFields = blockModelFields(schema);
  return records.map((record, index) =>
    nestedValues(record.fields, snapshots[index] ?? {}, blockFields),
  );
}

/**
 * Deletes the blocks a field's values hold, in every record (or block) of its model, and the
 * blocks inside them: run before a field holding blocks is destroyed.
 */
export async function deleteBlocksHeldBy(
  trx: EnvTrx,
  field: { id: string; item_type_id: string; field_type: string; localized: boolean },
): Promise<void> {
  if (!holdsBlocks(field)) return;
  const holder: BlockHoldingField[] = [{ ...field, api_key: field.id }];
  const [records, blocks] = await Promise.all([
    trx
      .selectFrom('items')
      .select('item_values')
      .where('item_type_id', '=', field.item_type_id)
      .execute(),
    trx
      .selectFrom('blocks')
      .select('item_values')
      .where('item_type_id', '=', field.item_type_id)
      .execute(),
  ]);
  const ids = [...records, ...blocks].flatMap((row) => refIdsIn(holder, row.item_values));
  await deleteBlocksAndInner(trx, ids);
}

function refIdsIn(holders: readonly BlockHoldingField[], values: Record<string, unknown>) {
  return holders.flatMap((held) =>
    blockRefsOf(held, values[held.id])
      .map(({ ref }) => ref)
      .filter((ref): ref is string => typeof ref === 'string'),
  );
}

/** Deletes these blocks and, level by level, the blocks inside them; answers what went. */
async function deleteBlocksAndInner(trx: EnvTrx, first: string[]): Promise<BlockRow[]> {
  const deleted: BlockRow[] = [];
  const schema = first.length > 0 ? await loadBlockSchema(trx) : new Map();
  let ids = first;
  while (ids.length > 0) {
    const rows = await trx.deleteFrom('blocks').where('id', 'in', ids).returningAll().execute();
    deleted.push(...rows);
    ids = rows.flatMap((row) =>
      refIdsIn(schema.get(row.item_type_id)?.fields ?? [], row.item_values),
    );
  }
  return deleted;
}

/**
 * A block model's destroy: its blocks (and the blocks inside them) are deleted, and the
 * records and blocks that named them stop naming them. (Published values and versions keep
 * their snapshots.) Run before the model's row goes, while its blocks can still be read.
 */
export async function dropBlocksOfModel(trx: EnvTrx, blockModelId: string): Promise<void> {
  const own = await trx
    .selectFrom('blocks')
    .select('id')
    .where('item_type_id', '=', blockModelId)
    .execute();
  const deleted = await deleteBlocksAndInner(
    trx,
    own.map((row) => row.id),
  );
  if (deleted.length === 0) return;
  const gone = new Set(deleted.map((row) => row.id));
  const itemIds = [...new Set(deleted.map((row) => row.item_id))];
  const schema = await loadBlockSchema(trx);
  const cleaned = (fields: readonly ItemField[], values: Record<string, unknown>) => {
    const out = { ...values };
    for (const field of fields)
      if (holdsBlocks(field)) out[field.id] = withoutBlocks(field, values[field.id] ?? null, gone);
    return JSON.stringify(out);
  };
  const records = await trx.selectFrom('items').selectAll().where('id', 'in', itemIds).execute();
  const fieldsByModel = await fieldsOfModels(
    trx,
    records.map((row) => row.item_type_id),
  );
  for (const record of records)
    await trx
      .updateTable('items')
      .set({
        item_values: cleaned(fieldsByModel.get(record.item_type_id) ?? [], record.item_values),
      })
      .where('id', '=', record.id)
      .execute();
  const holders = await trx
    .selectFrom('blocks')
    .selectAll()
    .where('item_id', 'in', itemIds)
    .execute();
  for (const block of holders)
    await trx
      .updateTable('blocks')
      .set({
        item_values: cleaned(schema.get(block.item_type_id)?.fields ?? [], block.item_values),
      })
      .where('id', '=', block.id)
      .execute();
}
