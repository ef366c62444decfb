import { sql } from 'kysely';
import type { EnvTrx } from '../../db/environment-scope.ts';
import type { FieldRow, ItemTypePatch, ItemTypeRow } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import {
  ELIGIBLE_FIELD_TYPES,
  FIELD_RELATIONSHIPS,
  type FieldRelationship,
} from '../item-types/attributes.ts';

/**
 * The model relationships (title_field, ordering_field, …) that point at this field
 * and cannot keep it: all of them when the field goes (fieldType null), those that do
 * not accept its new type otherwise. Losing the ordering field also drops the
 * ordering direction.
 */
export function releasedRelationships(
  itemType: ItemTypeRow,
  fieldId: string,
  fieldType: string | null,
): ItemTypePatch {
  const patch: ItemTypePatch = {};
  for (const [relationship, column] of Object.entries(FIELD_RELATIONSHIPS)) {
    if (itemType[column] !== fieldId) continue;
    const eligible = ELIGIBLE_FIELD_TYPES[relationship as FieldRelationship];
    if (fieldType !== null && eligible.includes(fieldType)) continue;
    patch[column] = null;
    if (relationship === 'ordering_field') patch.ordering_direction = null;
  }
  return patch;
}

/** Writes the patch, if any, and gives the model row as it now is. */
export async function releaseRelationships(
  trx: EnvTrx,
  itemType: ItemTypeRow,
  patch: ItemTypePatch,
): Promise<ItemTypeRow> {
  if (Object.keys(patch).length === 0) return itemType;
  return trx
    .updateTable('item_types')
    .set(patch)
    .where('id', '=', itemType.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A field another field's slug is generated from cannot be deleted. */
export async function refuseIfSlugSource(trx: EnvTrx, field: FieldRow): Promise<void> {
  const slugs = await trx
    .selectFrom('fields')
    .select(['id', 'api_key'])
    .where('item_type_id', '=', field.item_type_id)
    .where(sql<string>`validators->'slug_title_field'->>'title_field_id'`, '=', field.id)
    .execute();
  if (slugs.length > 0) {
    throw new DomainError(
      'REQUIRED_BY_ASSOCIATION',
      `the slug field ${slugs.map((slug) => slug.api_key).join(', ')} is generated from this field`,
      { field_ids: slugs.map((slug) => slug.id) },
    );
  }
}
