import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Records at scale (issue 11: 100,000 records in an environment).
//
// Indexes: the next position of a sortable model's record and `order_by=position_*` lists
// read (item_type_id, position); a tree's children and their next position read
// (parent_id, position). Lists by model in their default order, `filter[ids]` and a
// record's versions already have theirs (0003).
//
// Counts: `meta.total_count` of a list by model would count every record of the model on
// each page, O(records) (hundreds of ms for 100,000 on the embedded engine, which never
// vacuums, so it cannot even count from the index alone). `item_counts` keeps each
// model's number of records, maintained by statement triggers on `items` so every writer
// (records, blocks, model destroy, a fork's copy, a bulk load) keeps it right. It is
// derived data: forks do not copy it (ENVIRONMENT_TABLES leaves it out), the copy of
// `items` rebuilds it through the trigger.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE INDEX items_item_type_position_idx ON ${t('items')} (item_type_id, position);
    CREATE INDEX items_parent_position_idx ON ${t('items')} (parent_id, position)
      WHERE parent_id IS NOT NULL;

    CREATE TABLE ${t('item_counts')} (
      item_type_id text PRIMARY KEY REFERENCES ${t('item_types')} (id) ON DELETE CASCADE,
      total bigint NOT NULL
    );
    INSERT INTO ${t('item_counts')} (item_type_id, total)
      SELECT item_type_id, count(*) FROM ${t('items')} GROUP BY item_type_id;

    CREATE FUNCTION ${t('count_inserted_items')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${t('item_counts')} AS counts (item_type_id, total)
        SELECT item_type_id, count(*) FROM inserted GROUP BY item_type_id
        ON CONFLICT (item_type_id) DO UPDATE SET total = counts.total + excluded.total;
      RETURN NULL;
    END $$;
    CREATE TRIGGER items_counted_on_insert AFTER INSERT ON ${t('items')}
      REFERENCING NEW TABLE AS inserted
      FOR EACH STATEMENT EXECUTE FUNCTION ${t('count_inserted_items')}();

    CREATE FUNCTION ${t('count_deleted_items')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ${t('item_counts')} AS counts SET total = counts.total - gone.total
        FROM (SELECT item_type_id, count(*) AS total FROM deleted GROUP BY item_type_id) AS gone
        WHERE counts.item_type_id = gone.item_type_id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER items_counted_on_delete AFTER DELETE ON ${t('items')}
      REFERENCING OLD TABLE AS deleted
      FOR EACH STATEMENT EXECUTE FUNCTION ${t('count_deleted_items')}();
  `.execute(db);
}
