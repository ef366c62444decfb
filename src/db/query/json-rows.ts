import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';

/** The columns of a row the driver gives as Date objects. */
type DateColumn<Row> = { [K in keyof Row]: Date extends Row[K] ? K : never }[keyof Row];

/** Which columns to turn back into what the driver gives, the json text being plain. */
type Conversions<Row> = Readonly<{
  /** timestamps: ISO 8601 text back to Date objects */
  dates?: readonly DateColumn<Row>[];
  /** bigints: JSON numbers back to decimal strings (exact: these count rows and bytes) */
  bigints?: readonly (keyof Row)[];
}>;

/**
 * A select's rows as one json value: `SELECT json_agg(q) FROM (<query>) q`, for a read whose
 * caller puts the rows in its own order. The database then sends one field, parsed by one
 * `JSON.parse`, where it would send a field per column and row, each decoded and
 * type-parsed on its own: for a page of 100 records of 18 columns, most of the client-side
 * cost of reading them (the embedded engine's protocol bridge decodes every field in
 * JavaScript). The columns named in `convert` are turned back into what the driver gives,
 * so the rows are those `query.execute()` returns.
 */
export async function selectRowsAsJson<DB, TB extends keyof DB, Row>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DB, TB, Row>,
  convert: Conversions<Row>,
): Promise<Row[]> {
  // Generic over any select, the outer builder's types cannot be followed: one cast.
  const outer = (db as unknown as Kysely<Record<string, never>>)
    .selectFrom(query.as('q') as never)
    .select(sql<Row[]>`coalesce(json_agg(q), '[]'::json)`.as('rows'));
  const { rows } = await outer.executeTakeFirstOrThrow();
  for (const row of rows) {
    for (const column of convert.dates ?? []) {
      const value = row[column] as unknown;
      if (typeof value === 'string') (row[column] as unknown) = new Date(value);
    }
    for (const column of convert.bigints ?? []) {
      const value = row[column] as unknown;
      if (typeof value === 'number') (row[column] as unknown) = String(value);
    }
  }
  return rows;
}
