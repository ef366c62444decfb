import { sql } from 'kysely';
import type { EnvQueryable } from '../../db/environment-scope.ts';
import type { FieldRow } from '../../db/schema.ts';

/** Validators whose `item_types` list links records of other models. */
export const LINK_VALIDATORS = ['item_item_type', 'items_item_type', 'structured_text_links'];
/** Validators whose `item_types` list names the block models a field may embed. */
export const BLOCK_VALIDATORS = [
  'rich_text_blocks',
  'single_block_blocks',
  'structured_text_blocks',
  'structured_text_inline_blocks',
];

/** Fields, of any model, with a validator whose `item_types` names this model. */
export async function fieldsReferencing(db: EnvQueryable, itemTypeId: string): Promise<FieldRow[]> {
  return db
    .selectFrom('fields')
    .selectAll()
    .where(
      sql<boolean>`EXISTS (SELECT 1 FROM jsonb_each(${sql.ref('validators')}) AS v
        WHERE jsonb_typeof(v.value) = 'object' AND v.value->'item_types' @> to_jsonb(${itemTypeId}::text))`,
    )
    .orderBy('seq')
    .execute();
}

/** Names of this field's validators that reference the model, split by kind. */
export function referencingValidators(
  field: FieldRow,
  itemTypeId: string,
): { links: string[]; blocks: string[] } {
  const validators = field.validators as Record<string, { item_types?: unknown }>;
  const names = Object.keys(validators).filter((name) => {
    const list = validators[name]?.item_types;
    return Array.isArray(list) && list.includes(itemTypeId);
  });
  return {
    links: names.filter((name) => LINK_VALIDATORS.includes(name)),
    blocks: names.filter((name) => BLOCK_VALIDATORS.includes(name)),
  };
}
