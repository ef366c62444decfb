import type { EnvQueryable } from '../../../db/environment-scope.ts';
import { anyText } from '../../../db/query/any-text.ts';
import type { BlockRow, ItemTypeRow } from '../../../db/schema.ts';
import { fieldsOfModels, type ItemField } from '../model-fields.ts';
import type { BlockModelFields } from './block-values.ts';

// What block writes, reads and removals share: the block models with their fields, and the
// stored blocks of records (environment migration 0007).

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

/** Stored blocks of these records, by id. */
export async function blocksOf(db: EnvQueryable, itemIds: readonly string[]) {
  if (itemIds.length === 0) return new Map<string, BlockRow>();
  const rows = await db
    .selectFrom('blocks')
    .selectAll()
    .where(anyText('item_id', itemIds))
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Values by field id as values by api_key. */
export function byApiKey(fields: readonly ItemField[], values: Record<string, unknown>) {
  return Object.fromEntries(fields.map((field) => [field.api_key, values[field.id] ?? null]));
}
