import type { EnvQueryable, EnvTrx } from '../../../db/environment-scope.ts';
import type { BlockRow } from '../../../db/schema.ts';
import { type FieldIssue, ValidationFailed } from '../../errors.ts';
import { generateId } from '../../ids.ts';
import { MAX_NESTING_DEPTH } from '../../limits.ts';
import { blockRefProblem } from '../../schema/field-types/block-refs.ts';
import type { ItemField } from '../model-fields.ts';
import { checkItemValues } from '../values.ts';
import { type BlockSchema, byApiKey, loadBlockSchema } from './block-schema.ts';
import { nodeFromRow, snapshotValues } from './block-snapshots.ts';
import { blockRefsOf, holdsBlocks, mapBlockRefs } from './block-values.ts';

/**
 * Blocks of one record being written. A value may name a block by id (kept as
 * it is), by `{id, attributes}` (updated: the attributes sent replace the stored ones) or by
 * `{attributes, relationships.item_type}` (created). Each created or updated block is checked
 * against its block model's fields like a record, blocks in blocks included; an issue inside
 * a block is reported with a `field` path from the record's field down to the block's field
 * (`sections.1.title`, `content.en.0.title`). Blocks of the record no value names any more are
 * deleted by `commit`.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TOO_DEEP = `blocks nest deeper than ${MAX_NESTING_DEPTH} levels (each block counts one, and so does each structured text node above it)`;

type BlockWrite = { id: string; item_type_id: string; values: Record<string, unknown> };

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
   * is left as sent (the record's own checks then skip it). `depth`: the level of the
   * values' holder (0: the record, else its block's level); a block that would sit past
   * MAX_NESTING_DEPTH is refused without looking inside it, so the checks recurse no deeper.
   */
  async resolve(
    fields: readonly ItemField[],
    attributes: Record<string, unknown>,
    issues: FieldIssue[],
    depth = 0,
  ): Promise<Record<string, unknown>> {
    const out = { ...attributes };
    for (const field of fields) {
      if (!holdsBlocks(field) || !Object.hasOwn(attributes, field.api_key)) continue;
      const ids = new Map<unknown, string>();
      for (const { ref, place, level } of blockRefsOf(field, attributes[field.api_key])) {
        const path = [field.api_key, ...place].join('.');
        if (this.nestsTooDeep(ref, depth + level)) {
          issues.push({ field: path, code: 'VALIDATION_INVALID', message: TOO_DEEP });
          continue;
        }
        if (blockRefProblem(ref) !== null) continue; // the record's shape check reports it
        const at = depth + level;
        const id = await this.resolveOne(ref as string | Record<string, unknown>, path, issues, at);
        if (id !== null) ids.set(ref, id);
      }
      out[field.api_key] = mapBlockRefs(field, attributes[field.api_key], (ref) =>
        ids.has(ref) ? ids.get(ref) : ref,
      );
    }
    return out;
  }

  /**
   * Whether a block placed at level `at` sits past MAX_NESTING_DEPTH, or (named by id)
   * holds stored blocks that would then: a block moved deeper takes its own blocks along.
   * Bounded: it walks no further than the limit.
   */
  private nestsTooDeep(ref: unknown, at: number): boolean {
    if (at > MAX_NESTING_DEPTH) return true;
    if (typeof ref !== 'string') return false;
    const modelId = this.stored.get(ref)?.item_type_id;
    const values = this.stored.get(ref)?.item_values;
    if (modelId === undefined || values === undefined) return false;
    return (this.schema.get(modelId)?.fields ?? []).some((field) =>
      blockRefsOf(field, values[field.id]).some(({ ref: inner, level }) =>
        this.nestsTooDeep(inner, at + level),
      ),
    );
  }

  private async resolveOne(
    ref: string | Record<string, unknown>,
    path: string,
    issues: FieldIssue[],
    depth: number,
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
      const given = Object.keys(sent).filter((key) => known.has(key));
      const values = await checkItemValues(
        this.db,
        {
          model,
          fields,
          locales: this.locales,
          itemId: blockId,
          attributes,
          blocks: this,
          depth,
          // Like a record's: a new block's defaults follow its sent locales; an updated
          // block's kept values keep theirs.
          ...(stored
            ? { sent: new Set(given) }
            : {
                defaulted: new Set(
                  fields.map((field) => field.api_key).filter((key) => !given.includes(key)),
                ),
              }),
        },
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

  /** The values' blocks as stored before this session's writes (an update's previous record). */
  storedSnapshot(
    fields: readonly ItemField[],
    values: Record<string, unknown>,
  ): Record<string, unknown> {
    return snapshotValues(fields, values, this.schema, (id) => {
      const row = this.stored.get(id);
      return row ? nodeFromRow(row) : undefined;
    });
  }

  /** Saves the created and updated blocks and deletes the record's blocks no value names. */
  async commit(trx: EnvTrx, fields: readonly ItemField[], values: Record<string, unknown>) {
    // `resolve` refused anything deeper than MAX_NESTING_DEPTH, so the walk stops there.
    const reachable = new Set<string>();
    const visit = (holder: readonly ItemField[], held: Record<string, unknown>, depth: number) => {
      for (const field of holder)
        for (const { ref, level } of blockRefsOf(field, held[field.id])) {
          if (typeof ref !== 'string' || reachable.has(ref)) continue;
          if (depth + level > MAX_NESTING_DEPTH) continue;
          reachable.add(ref);
          const modelId = this.modelOf(ref);
          const inner = this.valuesOf(ref);
          if (modelId && inner) visit(this.schema.get(modelId)?.fields ?? [], inner, depth + level);
        }
    };
    visit(fields, values, 0);
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
