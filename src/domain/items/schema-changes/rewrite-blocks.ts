import type { EnvTrx } from '../../../db/environment-scope.ts';
import type { StoredValues } from './refresh.ts';

/** Rewrites the values of every block of a block model (blocks have no validity to keep). */
export async function rewriteBlocks(
  trx: EnvTrx,
  blockModelId: string,
  rewrite: (values: StoredValues) => StoredValues,
): Promise<void> {
  const rows = await trx
    .selectFrom('blocks')
    .select(['id', 'item_values'])
    .where('item_type_id', '=', blockModelId)
    .execute();
  for (const row of rows) {
    const values = rewrite(row.item_values);
    if (JSON.stringify(values) !== JSON.stringify(row.item_values))
      await trx
        .updateTable('blocks')
        .set({ item_values: JSON.stringify(values) })
        .where('id', '=', row.id)
        .execute();
  }
}
