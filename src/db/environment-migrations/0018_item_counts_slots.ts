import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

/**
 * A model's kept record count (0006) was one row, updated by every record create and
 * delete of the model and held to commit: concurrent creates of one model queued on it
 * (the `transactionid` waits of bench/concurrency.ts). Counts now live in slots, as the
 * records version does (project migration 0016): each backend adds to its own row of the
 * model (its pid modulo 64) and a model's count is the sum of its rows, which is what
 * every reader already asked for (`sum(total)`). Two backends sharing a slot only wait for
 * each other; rows are touched in model order, so two statements cannot deadlock on them.
 * The existing counts become slot -1.
 */
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    ALTER TABLE ${t('item_counts')} ADD COLUMN slot integer NOT NULL DEFAULT -1;
    ALTER TABLE ${t('item_counts')} ALTER COLUMN slot DROP DEFAULT;
    ALTER TABLE ${t('item_counts')} DROP CONSTRAINT item_counts_pkey;
    ALTER TABLE ${t('item_counts')} ADD PRIMARY KEY (item_type_id, slot);

    CREATE OR REPLACE FUNCTION ${t('count_inserted_items')}() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${t('item_counts')} AS counts (item_type_id, slot, total)
        SELECT item_type_id, pg_backend_pid() % 64, count(*) FROM inserted
        GROUP BY item_type_id ORDER BY item_type_id
        ON CONFLICT (item_type_id, slot) DO UPDATE SET total = counts.total + excluded.total;
      RETURN NULL;
    END $$;

    -- A delete adds a negative count to the deleting backend's slot: a slot may go below
    -- zero, the sum of a model's slots never does.
    CREATE OR REPLACE FUNCTION ${t('count_deleted_items')}() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${t('item_counts')} AS counts (item_type_id, slot, total)
        SELECT d.item_type_id, pg_backend_pid() % 64, -count(*) FROM deleted AS d
        WHERE EXISTS (SELECT FROM ${t('item_types')} AS m WHERE m.id = d.item_type_id)
        GROUP BY d.item_type_id ORDER BY d.item_type_id
        ON CONFLICT (item_type_id, slot) DO UPDATE SET total = counts.total + excluded.total;
      RETURN NULL;
    END $$;
  `.execute(db);
}
