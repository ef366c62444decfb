import {
  type DeleteResult,
  type InsertResult,
  type OperationNodeSource,
  type QueryCreator,
  type RawBuilder,
  sql,
  type UpdateResult,
} from 'kysely';

/**
 * An insert, update or delete of any table, built and not yet sent, without RETURNING:
 * nothing reads its result (a builder given `returning` answers rows of its own, not these
 * counts, and a select answers rows: the type refuses both).
 */
export type UnreadWrite = OperationNodeSource & {
  execute(): Promise<(InsertResult | UpdateResult | DeleteResult)[]>;
};

/**
 * The writes as CTEs of the statement built on what this returns (`write_0`, `write_1`…
 * in their order, which no part of it names): one statement instead of one more each.
 * PostgreSQL takes a data-modifying WITH only at the top level of a statement, so each
 * write is a CTE of its own. A write built on a scoped handle brings its schema along (its
 * plugins apply as it becomes a node). Every part of the statement reads the database as
 * it was before the statement: the writes' effects show from the next one on, and their
 * triggers fire as the statement ends, as they would have.
 */
export function withWrites<DB>(
  db: QueryCreator<DB>,
  writes: readonly UnreadWrite[],
): QueryCreator<DB> {
  return writes.reduce<QueryCreator<DB>>(
    // Each CTE widens the creator's type by its name; no part of the statement reads one,
    // so the creator keeps the database's type.
    (carrier, write, index) => carrier.with(writeName(index), () => sql`(${write})`) as never,
    db,
  );
}

/** As withWrites, for a statement written as SQL: its `WITH` list's first entries. */
export function writeCtes(writes: readonly UnreadWrite[]): RawBuilder<unknown>[] {
  return writes.map((write, index) => sql`${sql.table(writeName(index))} AS (${write})`);
}

const writeName = (index: number) => `write_${index}`;
