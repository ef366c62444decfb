import { sql } from 'kysely';
import type { Db } from './client.ts';
import { executePrepared } from './query/prepared.ts';
import type { Trx } from './transaction.ts';

// The schema version a committed schema change left its environment at, for what keeps
// versions read earlier (domain/auth/assumed-access.ts: the token answers a PostgreSQL
// process remembers). Read last in the change, held: it goes with the COMMIT, and is
// heard only once the COMMIT succeeded. Schema changes hold the environment's lock
// exclusively, so no other schema change commits between that read and the COMMIT.

export type SchemaVersionListener = (environmentNumber: number, version: string) => void;

const listeners = new WeakMap<Db, SchemaVersionListener>();

/** Tells `listener` the schema version each schema change committed on `db` left. */
export function listenToSchemaVersionsLeft(db: Db, listener: SchemaVersionListener): void {
  listeners.set(db, listener);
}

/**
 * Holds, as a schema change's last statement, the read of the version it leaves; returns
 * what tells the listener once the change committed (nothing when no one listens).
 */
export async function holdSchemaVersionRead(
  db: Db,
  trx: Trx,
  environmentNumber: number,
): Promise<() => void> {
  const listener = listeners.get(db);
  if (!listener) return () => {};
  let left: string | null = null;
  const read = sql<{ version: string }>`
    SELECT schema_version::text AS version FROM environments WHERE number = ${environmentNumber}
  `;
  await executePrepared(
    trx,
    { compile: () => read.compile(trx) },
    {
      held: true,
      receive: (rows) => {
        left = (rows[0] as { version: string } | undefined)?.version ?? null;
      },
    },
  );
  return () => {
    if (left !== null) listener(environmentNumber, left);
  };
}
