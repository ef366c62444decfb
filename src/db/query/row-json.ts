/** A row as row_to_json gives it: timestamps as strings, bigints as numbers. */
export type RowJson<Row> = Omit<Row, 'seq' | 'created_at'> & { seq: number; created_at: string };

/**
 * The row as the driver would have given it. Hot-path reads select `row_to_json(t.*)`:
 * one json column keeps a prepared statement's cached plan valid when a migration adds
 * columns, where `t.*` would fail.
 */
export function fromRowJson<Row>(row: RowJson<Row>): Row {
  return { ...row, seq: String(row.seq), created_at: new Date(row.created_at) } as Row;
}
