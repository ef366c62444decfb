import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { EnvQueryable } from '../../db/environment-scope.ts';

/** The alias upload queries give the uploads table, which `inUse` correlates with. */
export const UPLOAD_ALIAS = 'upload';

/**
 * `inUse` of `UploadFilter`: whether some record names the upload in a file, gallery or SEO
 * value, in its current values (its blocks' included) or its published ones, at any depth
 * and in any locale, as the CMA's upload references read them (record-references.ts). Each
 * test is a lookup in the GIN indexes those expressions have, not a walk of every record.
 */
export function uploadInUse(db: EnvQueryable): RawBuilder<SqlBool> {
  const names = (column: 'item_values' | 'published_values') =>
    sql<SqlBool>`public.fieldhouse_upload_ids(${sql.ref(column)}) @> jsonb_build_array(${sql.ref(`${UPLOAD_ALIAS}.id`)})`;
  const inRecords = db
    .selectFrom('items')
    .select(sql`1`.as('one'))
    .where((eb) => eb.or([names('item_values'), names('published_values')]));
  const inBlocks = db.selectFrom('blocks').select(sql`1`.as('one')).where(names('item_values'));
  return sql<SqlBool>`(exists (${inRecords}) or exists (${inBlocks}))`;
}
