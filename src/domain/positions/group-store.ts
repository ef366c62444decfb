import { sql } from 'kysely';
import type { EnvQueryable, EnvTrx } from '../../db/environment-scope.ts';
import type { GroupKey, Placed } from './order.ts';

/**
 * The members of one group in display order: by position, a fieldset before a field
 * on a tie (as the model's form shows them), then by age.
 */
export async function loadGroup(db: EnvQueryable, key: GroupKey): Promise<Placed[]> {
  let fieldsQuery = db
    .selectFrom('fields')
    .select(['id', 'position', 'seq'])
    .where('item_type_id', '=', key.itemTypeId);
  fieldsQuery =
    key.fieldsetId === null
      ? fieldsQuery.where('fieldset_id', 'is', null)
      : fieldsQuery.where('fieldset_id', '=', key.fieldsetId);
  const [fields, fieldsets] = await Promise.all([
    fieldsQuery.execute(),
    key.fieldsetId === null
      ? db
          .selectFrom('fieldsets')
          .select(['id', 'position', 'seq'])
          .where('item_type_id', '=', key.itemTypeId)
          .execute()
      : Promise.resolve([]),
  ]);
  const rows = [
    ...fieldsets.map((row) => ({ ...row, kind: 'fieldset' as const })),
    ...fields.map((row) => ({ ...row, kind: 'field' as const })),
  ];
  rows.sort(
    (a, b) =>
      a.position - b.position ||
      Number(b.kind === 'fieldset') - Number(a.kind === 'fieldset') ||
      Number(BigInt(a.seq) - BigInt(b.seq)),
  );
  return rows.map((row) => ({ kind: row.kind, id: row.id, position: row.position }));
}

/**
 * Stores `after` as the group's positions: every member whose position changed, or which
 * arrived from another group, is written in one statement per table. Members not stored
 * yet (a field being created) are the caller's to insert. Returns the members that moved.
 */
export async function storeGroup(
  trx: EnvTrx,
  key: GroupKey,
  before: readonly Placed[],
  after: readonly Placed[],
): Promise<Placed[]> {
  const previous = new Map(before.map((member) => [member.id, member.position]));
  const moved = after.filter((member) => previous.get(member.id) !== member.position);
  const fields = moved.filter((member) => member.kind === 'field');
  const fieldsets = moved.filter((member) => member.kind === 'fieldset');
  if (fields.length > 0) {
    await trx
      .updateTable('fields')
      .set({ position: newPosition(fields), fieldset_id: key.fieldsetId })
      .where('id', 'in', ids(fields))
      .where('item_type_id', '=', key.itemTypeId)
      .execute();
  }
  if (fieldsets.length > 0) {
    await trx
      .updateTable('fieldsets')
      .set({ position: newPosition(fieldsets) })
      .where('id', 'in', ids(fieldsets))
      .where('item_type_id', '=', key.itemTypeId)
      .execute();
  }
  return moved;
}

function ids(members: Placed[]): string[] {
  return members.map((member) => member.id);
}

/** Each row's new position, looked up by its id in one JSON object: one statement per table. */
function newPosition(members: Placed[]) {
  const byId = Object.fromEntries(members.map((member) => [member.id, member.position]));
  return sql<number>`(${JSON.stringify(byId)}::jsonb ->> ${sql.ref('id')})::integer`;
}
