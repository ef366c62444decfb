import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { TableName } from './types.ts';

// A links, gallery or modular content (`rich_text`) value holding nothing is `[]`, as the
// official client types it (a list, never null); such values used to be stored as JSON null
// (or missing), in the current and published values, versions and blocks. This stores them
// as `[]`, per locale for localized fields, so that values compare as what they read (a
// write sending back the `[]` it read changes nothing). Blocks inline in published values
// and versions are left as they are: reads present them empty as `[]` all the same.
const LIST_TYPES = sql`('links', 'gallery', 'rich_text')`;

/** Whether field `f`'s value in `column` is an empty list stored as null or missing. */
function storedAsNull(column: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`CASE WHEN f.localized
    THEN jsonb_typeof(${column} -> f.id) = 'object'
      AND EXISTS (SELECT 1 FROM jsonb_each(${column} -> f.id) AS e WHERE e.value = 'null'::jsonb)
    ELSE coalesce(${column} -> f.id, 'null'::jsonb) = 'null'::jsonb END`;
}

/** Rewrites `column` of every row of `table` whose list-typed values are stored as null. */
async function normalise(db: Kysely<unknown>, t: TableName, table: string, name: string) {
  const column = sql.ref(`r.${name}`);
  const listFields = sql`FROM ${t('fields')} AS f
    WHERE f.item_type_id = r.item_type_id AND f.field_type IN ${LIST_TYPES}
      AND ${storedAsNull(column)}`;
  await sql`
    UPDATE ${t(table)} AS r SET ${sql.ref(name)} = ${column} || (
      SELECT jsonb_object_agg(f.id, CASE WHEN f.localized
        THEN (SELECT jsonb_object_agg(e.key, CASE WHEN e.value = 'null'::jsonb THEN '[]'::jsonb ELSE e.value END)
              FROM jsonb_each(${column} -> f.id) AS e)
        ELSE '[]'::jsonb END)
      ${listFields}
    )
    WHERE ${column} IS NOT NULL AND EXISTS (SELECT 1 ${listFields})
  `.execute(db);
}

export async function up(db: Kysely<unknown>, t: TableName): Promise<void> {
  await normalise(db, t, 'items', 'item_values');
  await normalise(db, t, 'items', 'published_values');
  await normalise(db, t, 'item_versions', 'item_values');
  await normalise(db, t, 'blocks', 'item_values');
}
