import { sql } from 'kysely';
import { migrateEnvironmentSchema } from './environment-migrate.ts';
import { ENVIRONMENT_TABLES, qualifiedTable } from './environment-scope.ts';
import type { Trx } from './transaction.ts';

// Columns copied in a second pass: item_types and fields reference each other, and
// neither constraint is deferrable, so models go first without these, then fields,
// then these are filled in.
const LATE_COLUMNS: Partial<Record<string, readonly string[]>> = {
  item_types: [
    'ordering_field_id',
    'presentation_title_field_id',
    'presentation_image_field_id',
    'title_field_id',
    'image_preview_field_id',
    'excerpt_field_id',
  ],
};

async function columnsOf(trx: Trx, schemaName: string, table: string): Promise<string[]> {
  const { rows } = await sql<{ column_name: string }>`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = ${schemaName} AND table_name = ${table}
    ORDER BY ordinal_position
  `.execute(trx);
  return rows.map((row) => row.column_name);
}

/**
 * Builds `to` as a copy of `from` inside the caller's transaction: the schema and its
 * tables from the environment migrations (one source of truth for the DDL), then every
 * row with its id, then the identity sequences past the copied values. Run in a
 * REPEATABLE READ transaction, every table is read from one snapshot, so the copy
 * never holds half of a concurrent change.
 */
export async function copyEnvironment(trx: Trx, from: string, to: string): Promise<void> {
  await migrateEnvironmentSchema(trx, to);
  for (const table of ENVIRONMENT_TABLES) {
    const columns = await columnsOf(trx, to, table);
    const late = LATE_COLUMNS[table] ?? [];
    const list = sql.join(columns.map((column) => sql.id(column)));
    const values = sql.join(
      columns.map((column) => (late.includes(column) ? sql`NULL` : sql.id(column))),
    );
    await sql`
      INSERT INTO ${qualifiedTable(to, table)} (${list}) OVERRIDING SYSTEM VALUE
      SELECT ${values} FROM ${qualifiedTable(from, table)}
    `.execute(trx);
    if (columns.includes('seq')) {
      const name = `${to}.${table}`;
      await sql`
        SELECT setval(pg_get_serial_sequence(${name}, 'seq'), coalesce(max(seq), 0) + 1, false)
        FROM ${qualifiedTable(to, table)}
      `.execute(trx);
    }
  }
  for (const [table, late] of Object.entries(LATE_COLUMNS)) {
    if (!late) continue;
    const assignments = sql.join(
      late.map((column) => sql`${sql.id(column)} = s.${sql.id(column)}`),
    );
    await sql`
      UPDATE ${qualifiedTable(to, table)} AS t SET ${assignments}
      FROM ${qualifiedTable(from, table)} AS s
      WHERE s.id = t.id
    `.execute(trx);
  }
}

/** Drops an environment's schema and everything in it. */
export async function dropEnvironmentSchema(trx: Trx, schemaName: string): Promise<void> {
  await sql`DROP SCHEMA IF EXISTS ${sql.id(schemaName)} CASCADE`.execute(trx);
}
