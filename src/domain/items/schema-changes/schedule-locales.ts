import { sql } from 'kysely';
import type { EnvTrx } from '../../../db/environment-scope.ts';
import type { ScheduleSelection } from '../../../db/schema.ts';
import { SCHEDULE_KINDS, scheduleLocales } from '../publishing/schedules.ts';

/** The selection without the locales the site no longer has; null when it selects nothing. */
function keptSelection(
  selection: ScheduleSelection,
  locales: readonly string[],
): ScheduleSelection | null {
  if (Array.isArray(selection)) {
    const kept = selection.filter((locale) => locales.includes(locale));
    return kept.length > 0 ? kept : null;
  }
  const kept = selection.content_in_locales.filter((locale) => locales.includes(locale));
  return kept.length > 0 || selection.non_localized_content
    ? { ...selection, content_in_locales: kept }
    : null;
}

/**
 * Schedules follow a change of the site's locales, as records' values do, in its
 * transaction: a removed locale is dropped from the pending schedules naming it. A
 * schedule left selecting nothing gives up there and then, as a run the API refuses
 * does: it stays with its reason, and the record's meta no longer shows it.
 */
export async function reshapeScheduleLocales(
  trx: EnvTrx,
  locales: readonly string[],
): Promise<void> {
  const pending = await trx
    .selectFrom('scheduled_actions')
    .selectAll()
    .where('failed_at', 'is', null)
    .where('selection', 'is not', null)
    .execute();
  for (const schedule of pending) {
    const selection = schedule.selection as ScheduleSelection;
    const removed = scheduleLocales(selection).filter((locale) => !locales.includes(locale));
    if (removed.length === 0) continue;
    const kept = keptSelection(selection, locales);
    if (kept !== null) {
      await trx
        .updateTable('scheduled_actions')
        .set({ selection: JSON.stringify(kept) })
        .where('seq', '=', schedule.seq)
        .execute();
      continue;
    }
    await trx
      .updateTable('scheduled_actions')
      .set({
        failed_at: sql<Date>`now()`,
        failure: `gave up: its locales (${removed.join(', ')}) were removed from the site, leaving it nothing to ${schedule.action}`,
      })
      .where('seq', '=', schedule.seq)
      .execute();
    await trx
      .updateTable('items')
      .set({ [SCHEDULE_KINDS[schedule.action].column]: null })
      .where('id', '=', schedule.item_id)
      .execute();
  }
}
