import { sql } from 'kysely';
import type { Db } from '../../../db/client.ts';
import {
  type EnvironmentRef,
  environmentRef,
  isVanishedEnvironmentError,
  qualifiedTable,
  type Scope,
  scopeFor,
} from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction, RECORD_CHANGE } from '../../../db/environment-transaction.ts';
import type { ScheduledActionRow } from '../../../db/schema.ts';
import { DomainError } from '../../errors.ts';
import { contentSelectionOf, publishInTransaction } from './publish-item.ts';
import { SCHEDULE_KINDS } from './schedules.ts';
import { unpublishInTransaction } from './unpublish-item.ts';

/**
 * Running due schedules (migration 0008). Each environment keeps its schedules in its own
 * schema, so no single statement sees them all: a poll lists the ready environments and
 * asks all of them at once, in one UNION ALL statement of index probes (the partial index
 * on due_at), whether anything is due. That is two cheap statements per poll however many
 * environments there are, and only environments with due work are visited. A project-level
 * index of due times was the alternative; it would be a second copy of every schedule to
 * keep right through forks, promotions and destroys, for no fewer statements.
 *
 * A schedule runs in one environment transaction that claims it (FOR UPDATE SKIP LOCKED,
 * under the environment's lock), deletes it, clears the record's due time and publishes
 * or unpublishes exactly as the API does, event and webhook calls included: the claim
 * and the change commit together, so a schedule runs once, and a process that dies
 * mid-run leaves it due for the next poll of any process.
 */

/** Runs that fail for a reason that may pass (not a domain refusal) are tried this often. */
const MAX_ATTEMPTS = 5;

/** Refusals that say "not now" about the environment, not "never" about the schedule. */
const ENVIRONMENT_BUSY = new Set([
  'INVALID_ENVIRONMENT',
  'ENVIRONMENT_NOT_READY',
  'ENVIRONMENT_IN_READ_ONLY_MODE',
  'MAINTENANCE_MODE',
]);

export type ScheduleLogger = {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
};

/** The ready environments with at least one schedule due now. */
export async function environmentsWithDueSchedules(db: Db): Promise<EnvironmentRef[]> {
  const environments = await db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name', 'is_primary'])
    .where('status', '=', 'ready')
    .execute();
  if (environments.length === 0) return [];
  const probes = environments.map(
    (environment) => sql`
      SELECT ${sql.lit(environment.number)}::integer AS number WHERE EXISTS (
        SELECT 1 FROM ${qualifiedTable(environment.schema_name, 'scheduled_actions')}
        WHERE failed_at IS NULL AND due_at <= now()
      )`,
  );
  try {
    const { rows } = await sql<{ number: number }>`${sql.join(probes, sql` UNION ALL `)}`.execute(
      db,
    );
    const due = new Set(rows.map((row) => row.number));
    return environments.filter((row) => due.has(row.number)).map(environmentRef);
  } catch (error) {
    // An environment destroyed since the list: the next poll lists without it.
    if (isVanishedEnvironmentError(error)) return [];
    throw error;
  }
}

/**
 * What one run did: ran the oldest due schedule, found none, gave it up (it is refused
 * for good: go on with the next), or could not run it now (try again at the next poll).
 */
type Outcome = 'ran' | 'none' | 'gave-up' | 'later';

/** Runs the environment's due schedules, oldest first, at most `limit` of them. */
export async function runDueSchedules(
  db: Db,
  environment: EnvironmentRef,
  logger: ScheduleLogger,
  limit = 100,
): Promise<number> {
  const scope = scopeFor(db, environment);
  let ran = 0;
  for (let run = 0; run < limit; run += 1) {
    const outcome = await runNext(scope, logger);
    if (outcome === 'ran') ran += 1;
    else if (outcome !== 'gave-up') break;
  }
  return ran;
}

async function runNext(scope: Scope, logger: ScheduleLogger): Promise<Outcome> {
  let claimed: ScheduledActionRow | undefined;
  try {
    return await inEnvironmentTransaction(
      scope,
      async (tx) => {
        claimed = await tx.db
          .selectFrom('scheduled_actions')
          .selectAll()
          .where('failed_at', 'is', null)
          .where('due_at', '<=', sql<Date>`now()`)
          .orderBy('due_at')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!claimed) return 'none';
        await tx.db.deleteFrom('scheduled_actions').where('seq', '=', claimed.seq).execute();
        // Cleared first, so the event's entity shows the schedule done.
        await tx.db
          .updateTable('items')
          .set({ [SCHEDULE_KINDS[claimed.action].column]: null })
          .where('id', '=', claimed.item_id)
          .execute();
        const { selection } = claimed;
        if (claimed.action === 'publish')
          await publishInTransaction(
            tx,
            claimed.item_id,
            selection && !Array.isArray(selection) ? contentSelectionOf(selection) : undefined,
          );
        else
          await unpublishInTransaction(
            tx,
            claimed.item_id,
            Array.isArray(selection) ? selection : undefined,
          );
        return 'ran';
      },
      RECORD_CHANGE,
    );
  } catch (error) {
    if (error instanceof DomainError && ENVIRONMENT_BUSY.has(error.code)) return 'later';
    if (isVanishedEnvironmentError(error)) return 'later';
    if (!claimed) throw error;
    await recordFailure(scope, claimed, error, logger);
    return error instanceof DomainError ? 'gave-up' : 'later';
  }
}

/**
 * A run that failed: a domain refusal (the record is invalid now) will not pass by
 * itself, so the schedule gives up at once; anything else is tried again at the next
 * polls, MAX_ATTEMPTS times in all. A schedule that gave up stays with its reason and
 * leaves the record's meta.
 */
async function recordFailure(
  scope: Scope,
  schedule: ScheduledActionRow,
  error: unknown,
  logger: ScheduleLogger,
): Promise<void> {
  const permanent = error instanceof DomainError;
  const reason = error instanceof Error ? error.message : String(error);
  try {
    await inEnvironmentTransaction(scope, async (tx) => {
      const updated = await tx.db
        .updateTable('scheduled_actions')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          failure: reason,
          failed_at:
            permanent || schedule.attempts + 1 >= MAX_ATTEMPTS
              ? sql<Date>`now()`
              : sql<Date | null>`NULL`,
        }))
        .where('seq', '=', schedule.seq)
        .where('failed_at', 'is', null)
        .returning(['failed_at'])
        .executeTakeFirst();
      if (updated?.failed_at)
        await tx.db
          .updateTable('items')
          .set({ [SCHEDULE_KINDS[schedule.action].column]: null })
          .where('id', '=', schedule.item_id)
          .execute();
    });
  } catch (recordError) {
    // The schedule stays due: the next poll runs it again.
    logger.error(
      { err: recordError, environment: scope.environment.id, item: schedule.item_id },
      'could not record a failed scheduled run',
    );
  }
  logger.warn(
    {
      err: error,
      environment: scope.environment.id,
      item: schedule.item_id,
      action: schedule.action,
    },
    permanent ? 'scheduled run refused; the schedule gave up' : 'scheduled run failed',
  );
}
