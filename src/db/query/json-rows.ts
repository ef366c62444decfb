import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';

/** The columns of a row the driver gives as Date objects. */
type DateColumn<Row> = { [K in keyof Row]: Date extends Row[K] ? K : never }[keyof Row];

/**
 * A select's rows as one json value: `SELECT json_agg(q) FROM (<query>) q`. The database
 * then sends one field, parsed by one `JSON.parse`, where it would send a field per column
 * and row, each decoded and type-parsed on its own: for a page of 100 records of 18
 * columns, most of the client-side cost of reading them (the embedded engine's protocol
 * bridge decodes every field in JavaScript). Timestamps arrive as ISO 8601 text and are
 * turned back into the Date objects the driver would have given (`dates`), so the rows are
 * those `query.execute()` returns; bigint columns would arrive as numbers, so a query
 * selecting one does not belong here.
 */
export async function selectRowsAsJson<DB, TB extends keyof DB, Row>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DB, TB, Row>,
  dates: readonly DateColumn<Row>[],
): Promise<Row[]> {
  // Generic over any select, the outer builder's types cannot be followed: one cast.
  const outer = (db as unknown as Kysely<Record<string, never>>)
    .selectFrom(query.as('q') as never)
    .select(sql<Row[]>`coalesce(json_agg(q), '[]'::json)`.as('rows'));
  const { rows } = await outer.executeTakeFirstOrThrow();
  for (const row of rows) {
    for (const column of dates) {
      const value = row[column] as unknown;
      if (typeof value === 'string') (row[column] as unknown) = new Date(value);
    }
  }
  return rows;
}
