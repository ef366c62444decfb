import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Indexes for environments with many records (issue 11, 100,000 records): the next
// position of a sortable model's record and `order_by=position_*` lists read
// (item_type_id, position); a tree's children and their next position read
// (parent_id, position). Lists by model in their default order, `filter[ids]` and a
// record's versions already have theirs (0003).
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE INDEX items_item_type_position_idx ON ${t('items')} (item_type_id, position);
    CREATE INDEX items_parent_position_idx ON ${t('items')} (parent_id, position)
      WHERE parent_id IS NOT NULL;
  `.execute(db);
}
