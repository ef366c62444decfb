import type { EnvQueryable, Scope } from '../../../db/environment-scope.ts';
import { inEnvironmentTransaction } from '../../../db/environment-transaction.ts';
import type {
  ScheduledActionKind,
  ScheduledActionRow,
  ScheduleSelection,
} from '../../../db/schema.ts';
import { NotFound, type RecordType, ValidationFailed } from '../../errors.ts';
import { isIsoDateTime } from '../../schema/field-types/iso-dates.ts';
import { quoteList } from '../../schema/field-types/problems.ts';
import { siteLocales } from '../../schema/locales.ts';
import type { RecordGate } from '../access/record-gate.ts';
import { findItem, findRow } from '../find-item.ts';
import type { RecordView } from '../record-view.ts';

/** A record's scheduled publication or unpublishing: what it acts on and when. */
export type ScheduledAction = Pick<
  ScheduledActionRow,
  'seq' | 'item_id' | 'action' | 'due_at' | 'selection'
>;
/** What tells the two kinds of schedule apart on the wire and on the record's row. */
export const SCHEDULE_KINDS = {
  publish: {
    recordType: 'ScheduledPublication',
    attribute: 'publication_scheduled_at',
    localesAttribute: 'selective_publication',
    column: 'publication_scheduled_at',
  },
  unpublish: {
    recordType: 'ScheduledUnpublishing',
    attribute: 'unpublishing_scheduled_at',
    localesAttribute: 'content_in_locales',
    column: 'unpublishing_scheduled_at',
  },
} as const satisfies Record<
  ScheduledActionKind,
  {
    recordType: RecordType;
    attribute: string;
    localesAttribute: string;
    column: 'publication_scheduled_at' | 'unpublishing_scheduled_at';
  }
>;

export type ScheduleInput = {
  /** The due time as sent (an ISO 8601 date-time). */
  at: string;
  /** `selective_publication` / `content_in_locales` as sent, shape checked; null: the whole record. */
  selection: ScheduleSelection | null;
};

/** The locales a schedule's part of the record names (none: the whole record). */
export function scheduleLocales(selection: ScheduleSelection | null): readonly string[] {
  if (selection === null) return [];
  return Array.isArray(selection) ? selection : selection.content_in_locales;
}

/**
 * Refuses a part naming a locale the environment's site does not have: it could never
 * run. (A locale removed later is dropped from the schedule: schedule-locales.ts.)
 */
async function checkScheduleLocales(
  db: EnvQueryable,
  kind: ScheduledActionKind,
  selection: ScheduleSelection | null,
): Promise<void> {
  const named = scheduleLocales(selection);
  if (named.length === 0) return;
  const locales = await siteLocales(db);
  const unknown = named.filter((locale) => !locales.includes(locale));
  if (unknown.length === 0) return;
  const { recordType, localesAttribute } = SCHEDULE_KINDS[kind];
  throw new ValidationFailed(recordType, [
    {
      field: localesAttribute,
      code: 'VALIDATION_INVALID',
      message: `names ${quoteList(unknown)}, not a locale of the site (${quoteList(locales)})`,
    },
  ]);
}

/** The due time, checked: a real date-time in the future (the docs: "the future date"). */
function dueTimeOf(kind: ScheduledActionKind, input: ScheduleInput, now: Date): Date {
  const { recordType, attribute } = SCHEDULE_KINDS[kind];
  if (!isIsoDateTime(input.at))
    throw new ValidationFailed(recordType, [
      { field: attribute, code: 'VALIDATION_FORMAT', message: 'must be an ISO 8601 date-time' },
    ]);
  const at = new Date(input.at);
  if (at.getTime() <= now.getTime())
    throw new ValidationFailed(recordType, [
      { field: attribute, code: 'VALIDATION_INVALID', message: 'must be in the future' },
    ]);
  return at;
}

/**
 * Schedules the record's publication or unpublishing. A record has at most one of each:
 * a new one replaces the pending one (or one that failed), as the API names it by record.
 * `gate` judges the caller's permission on the record under the environment's lock.
 * Returns the schedule and the record as it now is (meta shows the due time).
 */
export async function createSchedule(
  scope: Scope,
  kind: ScheduledActionKind,
  itemId: string,
  input: ScheduleInput,
  gate?: RecordGate,
): Promise<{ schedule: ScheduledAction; item: RecordView }> {
  const at = dueTimeOf(kind, input, new Date());
  const selection = input.selection === null ? null : JSON.stringify(input.selection);
  return inEnvironmentTransaction(scope, async (tx) => {
    if (!(await findRow(tx.db, itemId))) throw new NotFound('Item', itemId);
    await gate?.(tx, [itemId]);
    await checkScheduleLocales(tx.db, kind, input.selection);
    const row = await tx.db
      .insertInto('scheduled_actions')
      .values({ item_id: itemId, action: kind, due_at: at, selection })
      .onConflict((conflict) =>
        conflict.columns(['item_id', 'action']).doUpdateSet({
          due_at: at,
          created_at: new Date(),
          attempts: 0,
          failed_at: null,
          failure: null,
          selection,
        }),
      )
      .returning(['seq', 'item_id', 'action', 'due_at', 'selection'])
      .executeTakeFirstOrThrow();
    await tx.db
      .updateTable('items')
      .set({ [SCHEDULE_KINDS[kind].column]: at })
      .where('id', '=', itemId)
      .execute();
    return { schedule: row, item: await findItem(tx, itemId) };
  });
}

/**
 * Cancels the record's schedule of this kind (pending or failed); returns the record.
 * `gate` judges the caller's permission as for a new schedule.
 */
export async function destroySchedule(
  scope: Scope,
  kind: ScheduledActionKind,
  itemId: string,
  gate?: RecordGate,
): Promise<RecordView> {
  return inEnvironmentTransaction(scope, async (tx) => {
    if (!(await findRow(tx.db, itemId))) throw new NotFound('Item', itemId);
    await gate?.(tx, [itemId]);
    const removed = await tx.db
      .deleteFrom('scheduled_actions')
      .where('item_id', '=', itemId)
      .where('action', '=', kind)
      .returning('seq')
      .executeTakeFirst();
    if (!removed) throw new NotFound(SCHEDULE_KINDS[kind].recordType, itemId);
    await tx.db
      .updateTable('items')
      .set({ [SCHEDULE_KINDS[kind].column]: null })
      .where('id', '=', itemId)
      .execute();
    return findItem(tx, itemId);
  });
}
