import type { Kysely, RawBuilder } from 'kysely';

/** Renders `<environment schema>.<table>`: environment DDL never relies on search_path. */
export type TableName = (table: string) => RawBuilder<unknown>;

/** A change to the tables every environment schema holds, applied once per schema. */
export type EnvironmentMigration = {
  up(db: Kysely<unknown>, table: TableName): Promise<void>;
};
