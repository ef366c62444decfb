import { sql } from 'kysely';
import type { EnvTrx } from '../../../db/environment-scope.ts';
import { checkRecordValues } from '../../schema/field-types/index.ts';
import { siteLocales } from '../../schema/locales.ts';
import { blockIdValues } from '../blocks/block-values.ts';
import { fieldsOfModel, type ItemField } from '../model-fields.ts';

/** A record's stored values: keyed by field id. */
export type StoredValues = Record<string, unknown>;

/**
 * Whether stored values satisfy the fields as they are now: value shapes and the
 * validators the registry checks alone. Checks that need the database (`unique`, link
 * targets) run when a record is saved, not here.
 */
function validator(
  fields: readonly ItemField[],
  locales: readonly string[],
  allLocalesRequired: boolean,
): (values: StoredValues) => boolean {
  return (values) => {
    const attributes = Object.fromEntries(
      fields.map((field) => [field.api_key, values[field.id] ?? null]),
    );
    return (
      checkRecordValues(fields, attributes, { locales, allLocalesRequired }).issues.length === 0
    );
  };
}

/**
 * After a schema change, in its transaction: rewrites the current and published values of
 * every record of the model (when `rewrite` is given) and recomputes whether each is
 * valid against the schema as it now is. A record the change breaks becomes invalid
 * (`meta.is_valid: false`) rather than the change being refused. Versions
 * keep what was saved. Only records whose values or validity change are written, in
 * batches.
 */
export async function refreshRecords(
  trx: EnvTrx,
  itemTypeId: string,
  rewrite: (values: StoredValues) => StoredValues = (values) => values,
): Promise<void> {
  const rows = await trx
    .selectFrom('items')
    .select(['id', 'item_values', 'published_values', 'current_valid', 'published_valid'])
    .where('item_type_id', '=', itemTypeId)
    .execute();
  // Schema changes on models without records (most of a migration script's) stop here.
  if (rows.length === 0) return;
  const [model, fields, locales] = await Promise.all([
    trx
      .selectFrom('item_types')
      .select('all_locales_required')
      .where('id', '=', itemTypeId)
      .executeTakeFirstOrThrow(),
    fieldsOfModel(trx, itemTypeId),
    siteLocales(trx),
  ]);
  const isValid = validator(fields, locales, model.all_locales_required);
  const changed: RefreshedRow[] = [];
  for (const row of rows) {
    const current = rewrite(row.item_values);
    const published = row.published_values === null ? null : rewrite(row.published_values);
    const currentValid = isValid(current);
    // Published values hold their blocks inline; their shape is checked with blocks by id.
    const publishedValid = published === null || isValid(blockIdValues(fields, published));
    const unchanged =
      currentValid === row.current_valid &&
      publishedValid === row.published_valid &&
      JSON.stringify(current) === JSON.stringify(row.item_values) &&
      JSON.stringify(published) === JSON.stringify(row.published_values);
    if (!unchanged)
      changed.push({
        id: row.id,
        item_values: current,
        published_values: published,
        current_valid: currentValid,
        published_valid: publishedValid,
      });
  }
  for (let start = 0; start < changed.length; start += WRITE_BATCH)
    await writeRows(trx, changed.slice(start, start + WRITE_BATCH));
}

type RefreshedRow = {
  id: string;
  item_values: StoredValues;
  published_values: StoredValues | null;
  current_valid: boolean;
  published_valid: boolean;
};

// Rows per UPDATE: one statement per batch instead of one per record.
const WRITE_BATCH = 500;

/** Writes refreshed rows in one statement, reading them from a JSON array. */
async function writeRows(trx: EnvTrx, rows: RefreshedRow[]): Promise<void> {
  await trx
    .updateTable('items')
    .from(sql`jsonb_array_elements(${JSON.stringify(rows)}::jsonb)`.as('x'))
    .set({
      item_values: sql`x.value -> 'item_values'`,
      // A JSON null is no published version: the column is NULL then.
      published_values: sql`nullif(x.value -> 'published_values', 'null'::jsonb)`,
      current_valid: sql`(x.value ->> 'current_valid')::boolean`,
      published_valid: sql`(x.value ->> 'published_valid')::boolean`,
    })
    .where('items.id', '=', sql<string>`x.value ->> 'id'`)
    .execute();
}

/**
 * The model's invalid records, current or published version, as a subquery whose rows
 * tell whether there are any (then a change may make them valid).
 */
export function invalidRecordsOf(trx: EnvTrx, itemTypeId: string) {
  return trx
    .selectFrom('items')
    .select('id')
    .where('item_type_id', '=', itemTypeId)
    .where((eb) => eb.or([eb('current_valid', '=', false), eb('published_valid', '=', false)]));
}
