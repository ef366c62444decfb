import { sql } from 'kysely';
import type { Db } from '../../src/db/client.ts';
import { loadScope, qualifiedTable } from '../../src/db/environment-scope.ts';

/**
 * Fills the primary environment with `models` models of `fields` string fields each,
 * in two statements (benches and crash tests need big schemas fast). Ids are
 * `m<n>`/`f<n>_<i>`: valid legacy decimal-free ids are not needed by these tests.
 */
export async function seedSchema(db: Db, models: number, fields: number): Promise<void> {
  const schema = (await loadScope(db)).environment.schemaName;
  await sql`
    INSERT INTO ${qualifiedTable(schema, 'item_types')} (id, name, api_key, singleton, sortable,
      tree, modular_block, draft_mode_active, draft_saving_active, all_locales_required,
      collection_appearance, inverse_relationships_enabled)
    SELECT 'm' || g, 'Seeded ' || g, 'seeded_m' || g, false, false, false, false, false, false,
      false, 'compact', false
    FROM generate_series(1, ${models}) AS g
  `.execute(db);
  await sql`
    INSERT INTO ${qualifiedTable(schema, 'fields')} (id, item_type_id, label, api_key, field_type,
      localized, validators, appearance, position, default_value, deep_filtering_enabled,
      content_link_enabled)
    SELECT 'f' || m || '_' || i, 'm' || m, 'Field ' || i, 'field' || i, 'string', false, '{}',
      '{"editor":"single_line","parameters":{"heading":false,"placeholder":null},"addons":[]}',
      i, 'null', false, true
    FROM generate_series(1, ${models}) AS m, generate_series(1, ${fields}) AS i
  `.execute(db);
}

/**
 * Adds `records` records, spread over the first `models` seeded models, each with one
 * version and a value for each of its `fields` fields (ids `r<n>`, versions `v<n>`).
 * Call after seedSchema with at least as many models and fields.
 */
export async function seedRecords(
  db: Db,
  records: number,
  models: number,
  fields: number,
): Promise<void> {
  const schema = (await loadScope(db)).environment.schemaName;
  const values = sql`(
    SELECT jsonb_object_agg('f' || (1 + g % ${models}) || '_' || i, 'Value ' || g || ' of ' || i)
    FROM generate_series(1, ${fields}) AS i
  )`;
  await sql`
    INSERT INTO ${qualifiedTable(schema, 'items')} (id, item_type_id, item_values, status,
      current_version_id)
    SELECT 'r' || g, 'm' || (1 + g % ${models}), ${values}, 'draft', 'v' || g
    FROM generate_series(1, ${records}) AS g
  `.execute(db);
  await sql`
    INSERT INTO ${qualifiedTable(schema, 'item_versions')} (id, item_id, item_type_id,
      item_values)
    SELECT 'v' || g, 'r' || g, 'm' || (1 + g % ${models}), ${values}
    FROM generate_series(1, ${records}) AS g
  `.execute(db);
}
