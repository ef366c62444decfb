import { sql } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { ENVIRONMENT_LOCK_KEY } from './environment-locks.ts';
import {
  type AccessAssumption,
  type EnvironmentRef,
  environmentRef,
  type Scope,
} from './environment-scope.ts';
import { executePrepared } from './query/prepared.ts';
import type { EnvironmentRow } from './schema.ts';
import type { Trx } from './transaction.ts';

// How a change enters its environment: the lock, then the checks that the environment
// still takes changes (gone, not ready, read-only, maintenance), either answered to the
// change (`enter`) or made by the database against what the request read (`holdEntry`).

/** What a change reads of its environment once it holds the lock (enter_environment). */
type EnvironmentCheck = Pick<
  EnvironmentRow,
  'id' | 'number' | 'schema_name' | 'is_primary' | 'status' | 'read_only_mode' | 'schema_version'
> & { maintenance_mode: boolean };

/** The environment a change runs in, and the schema version its lock holds in place. */
export type Entry = Readonly<{ environment: EnvironmentRef; schemaVersion: string }>;

/**
 * Takes the environment's lock, then reads its row with its schema version and the site's
 * maintenance mode: one statement, a function whose reads follow the lock (project
 * migrations 0008, 0009 and 0015). A schema change takes the lock exclusively and touches
 * the row (`enter_environment`); a record change takes it shared and moves its backend's
 * records-version slot instead (`enter_records`): record writes do not queue on one lock or
 * one row. Refuses a change the row forbids.
 */
export async function enter(trx: Trx, scope: Scope, records: boolean): Promise<Entry> {
  const number = scope.environment.number;
  const { rows } = await (records
    ? sql<EnvironmentCheck>`
        SELECT * FROM enter_records(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(number)})
      `
    : sql<EnvironmentCheck>`
        SELECT * FROM enter_environment(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${sql.lit(number)})
      `
  ).execute(trx);
  const current = rows[0];
  if (!current || current.status === 'destroying') throw refusal('gone', scope.environment.id);
  const refused = refusalOf(current);
  if (refused) throw refusal(refused, current.id);
  return { environment: environmentRef(current), schemaVersion: current.schema_version };
}

type Refusal = 'gone' | 'not ready' | 'read-only' | 'maintenance';

function refusalOf(current: EnvironmentCheck): Refusal | null {
  if (current.status !== 'ready') return 'not ready';
  if (current.read_only_mode) return 'read-only';
  if (current.is_primary && current.maintenance_mode) return 'maintenance';
  return null;
}

function refusal(refused: Refusal, environmentId: string): DomainError {
  switch (refused) {
    case 'gone':
      return new DomainError(
        'INVALID_ENVIRONMENT',
        `Environment "${environmentId}" does not exist`,
      );
    case 'not ready':
      return new DomainError(
        'ENVIRONMENT_NOT_READY',
        `Environment "${environmentId}" is not ready`,
      );
    case 'read-only':
      return new DomainError(
        'ENVIRONMENT_IN_READ_ONLY_MODE',
        `Environment "${environmentId}" is read-only while it is being forked`,
      );
    case 'maintenance':
      return new DomainError(
        'MAINTENANCE_MODE',
        'Maintenance mode is active: the primary environment is read-only',
      );
  }
}

/**
 * The entry when the change's request read the environment with its token: the change
 * assumes it unchanged, so nothing waits for the entry's answer. `enter_records_assuming`
 * or `enter_environment_assuming` (project migration 0018) takes the lock and checks the
 * row and the assumption itself, raising when the change may not go on (ENTRY_SQLSTATES),
 * and is held: it goes with the change's first statement, in its round trip, before it.
 */
export async function holdEntry(
  trx: Trx,
  scope: Scope,
  schemaVersion: string,
  records: boolean,
): Promise<Entry> {
  const { id, number, isPrimary } = scope.environment;
  const entering = sql.raw(records ? 'enter_records_assuming' : 'enter_environment_assuming');
  const statement = sql`SELECT ${entering}(${sql.lit(ENVIRONMENT_LOCK_KEY)}, ${number}, ${id},
    ${isPrimary}, ${schemaVersion}::bigint)`;
  await executePrepared(trx, { compile: () => statement.compile(trx) }, { held: true });
  return { environment: scope.environment, schemaVersion };
}

/**
 * Checks, after the entry, that the token answer the request took without reading it
 * (domain/auth/assumed-access.ts) still stands: no token or role changed since it was
 * read (project migration 0019; FH006 otherwise). Held, like the assuming entry.
 */
export async function holdAccessCheck(trx: Trx, access: AccessAssumption): Promise<void> {
  const check = sql`SELECT fieldhouse_check_access(${access.version}::bigint)`;
  await executePrepared(trx, { compile: () => check.compile(trx) }, { held: true });
}

// What each SQLSTATE the assuming entries raise means (project migration 0018); FH005:
// the environment is not as the request read it, and the change runs from the plain entry;
// FH006: a token or role changed since the request's token answer was read (migration 0019).
const ENTRY_SQLSTATES: ReadonlyMap<string, Refusal> = new Map([
  ['FH001', 'gone'],
  ['FH002', 'not ready'],
  ['FH003', 'read-only'],
  ['FH004', 'maintenance'],
]);
const MOVED_SINCE_REQUEST = 'FH005';
const ACCESS_MOVED = 'FH006';

function sqlState(error: unknown): string {
  return (error as { code?: string } | null)?.code ?? '';
}

/** The API error for a change an assuming entry refused, or null for any other error. */
export function entryRefusal(error: unknown, environmentId: string): DomainError | null {
  const refused = ENTRY_SQLSTATES.get(sqlState(error));
  return refused ? refusal(refused, environmentId) : null;
}

/** Whether an assuming entry found the environment moved since the request read it. */
export function movedSinceRequest(error: unknown): boolean {
  return sqlState(error) === MOVED_SINCE_REQUEST;
}

/** Whether a change's access check found a token or role changed since it was read. */
export function accessMovedSinceRequest(error: unknown): boolean {
  return sqlState(error) === ACCESS_MOVED;
}
