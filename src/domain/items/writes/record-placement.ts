import { sql } from 'kysely';
import type { EnvTrx } from '../../../db/environment-scope.ts';
import type { ItemTypeRow } from '../../../db/schema.ts';
import type { Issues } from '../../errors.ts';
import { MAX_POSITION } from '../../limits.ts';
import { findRow } from '../find-item.ts';

/** Position for a new record of a sortable or tree model: after its siblings. */
export async function nextPosition(trx: EnvTrx, model: ItemTypeRow, parentId: string | null) {
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
export function sentPositionOf(
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

export function checkParent(issues: Issues, model: ItemTypeRow, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!model.tree) {
    issues.add('parent_id', 'VALIDATION_INVALID', 'only records of tree models have a parent');
    return null;
  }
  if (typeof value !== 'string') issues.add('parent_id', 'VALIDATION_INVALID', 'must be an id');
  return typeof value === 'string' ? value : null;
}

export async function checkParentExists(
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
