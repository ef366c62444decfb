import { type RawBuilder, sql } from 'kysely';
import { migrateEnvironmentSchema } from './environment-migrate.ts';
import { ENVIRONMENT_TABLES, qualifiedTable } from './environment-scope.ts';
import type { Trx } from './transaction.ts';

/** What the copy needs to know about one table, read from the catalog once. */
type TablePlan = {
  table: string;
  columns: string[];
  /** Primary key columns: chunks follow them. Empty: the table is copied whole. */
  key: string[];
  /**
   * Foreign key columns naming a table not copied yet (the table itself, or one later
   * in ENVIRONMENT_TABLES): copied as NULL, then filled in once every row is there
   * (item_types ↔ fields, menu parents; neither constraint is deferrable).
   */
  late: string[];
  /** Rows in the source, for the progress figure. */
  rows: number;
};

async function planTable(trx: Trx, from: string, to: string, index: number): Promise<TablePlan> {
  const table = ENVIRONMENT_TABLES[index] as string;
  const qualified = `${to}.${table}`;
  const columns = await sql<{ name: string }>`
    SELECT attname AS name FROM pg_attribute
    WHERE attrelid = to_regclass(${qualified}) AND attnum > 0 AND NOT attisdropped
      -- A generated column is computed by the copy's insert, never given.
      AND attgenerated = ''
    ORDER BY attnum
  `.execute(trx);
  const key = await sql<{ name: string }>`
    SELECT a.attname AS name FROM pg_index i
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
    WHERE i.indrelid = to_regclass(${qualified}) AND i.indisprimary
    ORDER BY array_position(i.indkey::int2[], a.attnum)
  `.execute(trx);
  const references = await sql<{ name: string; referenced: string }>`
    SELECT a.attname AS name, r.relname AS referenced FROM pg_constraint c
    JOIN pg_class r ON r.oid = c.confrelid
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
    WHERE c.contype = 'f' AND c.conrelid = to_regclass(${qualified})
  `.execute(trx);
  const notYetCopied = new Set(ENVIRONMENT_TABLES.slice(index) as string[]);
  const late = references.rows
    .filter((reference) => notYetCopied.has(reference.referenced))
    .map((reference) => reference.name);
  const count = await sql<{ rows: number }>`
    SELECT count(*)::integer AS rows FROM ${qualifiedTable(from, table)}
  `.execute(trx);
  return {
    table,
    columns: columns.rows.map((row) => row.name),
    key: key.rows.map((row) => row.name),
    late: [...new Set(late)],
    rows: count.rows[0]?.rows ?? 0,
  };
}

/**
 * Builds environment schema `to` as a copy of `from`, one step at a time: the schema and
 * its tables from the environment migrations (one source of truth for the DDL), then
 * every table's rows with their ids in chunks of `chunkRows` following the primary key,
 * each table's identity sequence moved past the copied values, then the late columns.
 * Every step runs in the transaction the caller gives it. The copy is one snapshot of
 * `from` when all steps share one REPEATABLE READ transaction (PostgreSQL), or when
 * nothing writes to `from` between steps (embedded: the source's write gate is closed).
 * ENVIRONMENT_TABLES drives it: a table added there is copied with no change here.
 */
export class EnvironmentCopy {
  private migrated = false;
  private plans: TablePlan[] | null = null;
  /** The table whose rows are being copied, then the one whose late columns are filled. */
  private position = 0;
  private filling = false;
  /** The key of the last row copied from the current table (null: none yet). */
  private after: unknown[] | null = null;
  private copied = 0;
  private total = 0;

  constructor(
    private readonly from: string,
    private readonly to: string,
    private readonly chunkRows: number,
  ) {}

  get done(): boolean {
    return this.plans !== null && this.filling && this.position >= this.plans.length;
  }

  /** Rows copied so far out of the source's, 0–99 until the copy is done. */
  get percentage(): number {
    if (this.done) return 100;
    if (this.total === 0) return 0;
    return Math.min(99, Math.floor((this.copied * 100) / this.total));
  }

  /** Does the next piece of the copy in `trx`. */
  async step(trx: Trx): Promise<void> {
    if (!this.migrated) {
      await migrateEnvironmentSchema(trx, this.to);
      this.migrated = true;
      return;
    }
    if (!this.plans) {
      this.plans = [];
      for (let index = 0; index < ENVIRONMENT_TABLES.length; index += 1) {
        this.plans.push(await planTable(trx, this.from, this.to, index));
      }
      this.total = this.plans.reduce((sum, plan) => sum + plan.rows, 0);
      return;
    }
    const plan = this.plans[this.position];
    if (!plan) return;
    if (!this.filling) {
      if (await this.copyRows(trx, plan)) {
        await moveIdentityPast(trx, this.to, plan);
        this.after = null;
        this.position += 1;
      }
    } else {
      await fillLateColumns(trx, this.from, this.to, plan);
      this.position += 1;
    }
    if (!this.filling && this.position >= this.plans.length) {
      this.filling = true;
      this.position = 0;
    }
    if (this.filling) this.skipTablesWithoutLateColumns();
  }

  private skipTablesWithoutLateColumns(): void {
    while (this.plans && this.position < this.plans.length) {
      if ((this.plans[this.position]?.late.length ?? 0) > 0) return;
      this.position += 1;
    }
  }

  /** Copies the next chunk of `plan`'s rows; true when the table is complete. */
  private async copyRows(trx: Trx, plan: TablePlan): Promise<boolean> {
    const list = sql.join(plan.columns.map((column) => sql.id(column)));
    const values = sql.join(
      plan.columns.map((column) => (plan.late.includes(column) ? sql`NULL` : sql.id(column))),
    );
    const insert = (rest: RawBuilder<unknown>) => sql`
      INSERT INTO ${qualifiedTable(this.to, plan.table)} (${list}) OVERRIDING SYSTEM VALUE
      SELECT ${values} FROM ${qualifiedTable(this.from, plan.table)} ${rest}
    `;
    if (plan.key.length === 0) {
      await insert(sql``).execute(trx);
      this.copied += plan.rows;
      return true;
    }
    const key = sql.join(plan.key.map((column) => sql.id(column)));
    const descending = sql.join(plan.key.map((column) => sql`${sql.id(column)} DESC`));
    const after =
      this.after === null
        ? sql``
        : sql`WHERE (${key}) > (${sql.join(this.after.map((value) => sql`${value}`))})`;
    const { rows } = await sql<Record<string, unknown> & { copied: number }>`
      WITH chunk AS (
        ${insert(sql`${after} ORDER BY ${key} LIMIT ${sql.lit(this.chunkRows)}`)}
        RETURNING ${key}
      )
      SELECT ${key}, (SELECT count(*)::integer FROM chunk) AS copied
      FROM chunk ORDER BY ${descending} LIMIT 1
    `.execute(trx);
    const last = rows[0];
    if (!last) return true;
    this.copied += last.copied;
    this.after = plan.key.map((column) => last[column]);
    return last.copied < this.chunkRows;
  }
}

async function moveIdentityPast(trx: Trx, schemaName: string, plan: TablePlan): Promise<void> {
  if (!plan.columns.includes('seq')) return;
  await sql`
    SELECT setval(pg_get_serial_sequence(${`${schemaName}.${plan.table}`}, 'seq'),
      coalesce(max(seq), 0) + 1, false)
    FROM ${qualifiedTable(schemaName, plan.table)}
  `.execute(trx);
}

async function fillLateColumns(trx: Trx, from: string, to: string, plan: TablePlan) {
  if (plan.key.length === 0) throw new Error(`${plan.table}: late columns need a primary key`);
  const assignments = sql.join(
    plan.late.map((column) => sql`${sql.id(column)} = s.${sql.id(column)}`),
  );
  const sameRow = sql.join(
    plan.key.map((column) => sql`s.${sql.id(column)} = t.${sql.id(column)}`),
    sql` AND `,
  );
  const anySet = sql.join(
    plan.late.map((column) => sql`s.${sql.id(column)} IS NOT NULL`),
    sql` OR `,
  );
  await sql`
    UPDATE ${qualifiedTable(to, plan.table)} AS t SET ${assignments}
    FROM ${qualifiedTable(from, plan.table)} AS s
    WHERE ${sameRow} AND (${anySet})
  `.execute(trx);
}

/**
 * Drops an environment's schema and everything in it. Its uploads are deleted first:
 * DROP SCHEMA fires no trigger, and each upload row counts a reference to its bytes.
 */
export async function dropEnvironmentSchema(trx: Trx, schemaName: string): Promise<void> {
  await sql`SELECT fieldhouse_release_upload_refs(${schemaName})`.execute(trx);
  await sql`DROP SCHEMA IF EXISTS ${sql.id(schemaName)} CASCADE`.execute(trx);
}
