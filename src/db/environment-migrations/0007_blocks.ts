import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Blocks (records of `modular_block` models) live in their own table rather than as rows of
// `items`: they are never records of their own (not listed, counted, filtered, published or
// versioned alone), so keeping them apart leaves every query on records untouched instead of
// adding "and is not a block" to each. Each block belongs to one top-level record
// (`item_id`, deleted with it) and to its block model (deleted with it); which field (or
// parent block) holds it is read from the values that name it, so moving a block between
// fields is a change of values only. `item_values` is keyed by field id like records', so
// the schema changes that reach records reach blocks the same way. Versions and published
// values do not point here: they hold their blocks inline (a snapshot), so a restore or a
// published read never depends on a block that a later save removed.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    CREATE TABLE ${t('blocks')} (
      id text PRIMARY KEY,
      item_type_id text NOT NULL REFERENCES ${t('item_types')} (id) ON DELETE CASCADE,
      item_id text NOT NULL REFERENCES ${t('items')} (id) ON DELETE CASCADE,
      item_values jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      seq bigint GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX blocks_item_idx ON ${t('blocks')} (item_id);
    CREATE INDEX blocks_item_type_idx ON ${t('blocks')} (item_type_id);
  `.execute(db);
}
