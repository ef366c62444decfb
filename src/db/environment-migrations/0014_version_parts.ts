import { type Kysely, sql } from 'kysely';
import type { TableName } from './types.ts';

// Versions stored compactly (domain/items/version-values.ts). A version's values are a
// skeleton (`item_values`, each large part left as NULL) and the places its parts go
// (`value_refs`: [path, hash] pairs); a part is stored once per record, by the hash of its
// content, in `item_version_parts`, and may itself hold further parts the same way. So a
// save copies only the values and blocks that changed: an unchanged large value or block
// is the part the previous version already named. `part_hashes` lists every part a
// version reaches (its own and its parts' parts): the one read that rebuilds it, and what
// pruning keeps. Versions saved before this migration hold their whole values and no
// refs, which reads the same way. Parts go with their record (ON DELETE CASCADE), and are
// dropped by pruning once no kept version names them. `created_at` is indexed for
// pruning, which looks for versions past the retention period.
export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await sql`
    ALTER TABLE ${t('item_versions')}
      ADD COLUMN value_refs jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN part_hashes text[] NOT NULL DEFAULT '{}';
    CREATE INDEX item_versions_created_idx ON ${t('item_versions')} (created_at);

    CREATE TABLE ${t('item_version_parts')} (
      item_id text NOT NULL REFERENCES ${t('items')} (id) ON DELETE CASCADE,
      hash text NOT NULL,
      value jsonb NOT NULL,
      refs jsonb NOT NULL,
      PRIMARY KEY (item_id, hash)
    );
  `.execute(db);
}
