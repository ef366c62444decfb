import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

export type LastAccess =
  | 'today'
  | 'yesterday'
  | 'this_week'
  | 'last_week'
  | 'this_month'
  | 'last_month'
  | 'never';

const DAY_MS = 86_400_000;
// A token's use is recorded at most this often, so authenticating stays a read.
const RECORD_INTERVAL_MS = 60_000;

function startOfUtcDay(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/**
 * How recently a token was used, in the coarse buckets DatoCMS reports (UTC calendar
 * days, weeks starting on Monday). Uses before last month read as "never", the value
 * DatoCMS shows once its usage record has expired.
 */
export function lastAccessBucket(at: Date | null, now: Date): LastAccess {
  if (at === null) return 'never';
  const time = at.getTime();
  const today = startOfUtcDay(now);
  const weekStart = today - ((now.getUTCDay() + 6) % 7) * DAY_MS;
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const lastMonthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  if (time >= today) return 'today';
  if (time >= today - DAY_MS) return 'yesterday';
  if (time >= weekStart) return 'this_week';
  if (time >= weekStart - 7 * DAY_MS) return 'last_week';
  if (time >= monthStart) return 'this_month';
  if (time >= lastMonthStart) return 'last_month';
  return 'never';
}

/** Whether a CMA call by a token last noted at `lastAt` is to be noted (recordCmaAccess). */
export function cmaAccessDue(lastAt: Date | null): boolean {
  return lastAt === null || Date.now() - lastAt.getTime() >= RECORD_INTERVAL_MS;
}

/**
 * Notes a CMA call by a token whose last one was noted a minute or more ago (cmaAccessDue:
 * checked first, so that a request with nothing to note awaits nothing).
 */
export async function recordCmaAccess(db: Db, tokenId: string): Promise<void> {
  // The guard repeats in SQL so that concurrent requests write at most once.
  await db
    .updateTable('access_tokens')
    .set({ last_cma_access_at: sql`now()` })
    .where('id', '=', tokenId)
    .where((eb) =>
      eb.or([
        eb('last_cma_access_at', 'is', null),
        eb('last_cma_access_at', '<', sql<Date>`now() - interval '1 minute'`),
      ]),
    )
    .execute();
}
