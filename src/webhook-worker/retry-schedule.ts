/** DatoCMS's documented delays after each failure: +2 min, +6 min, +30 min, +1 h, +5 h, +1 d, +2 d. */
export const DATOCMS_RETRY_SCHEDULE: readonly number[] = [
  120, 360, 1800, 3600, 18_000, 86_400, 172_800,
];

// Up to 5% later than planned, so calls that failed together do not retry in lockstep.
const JITTER = 0.05;

/**
 * Milliseconds to wait after auto attempt `attempt` (0 = the first delivery) failed,
 * or null when the schedule has no retry left.
 */
export function retryDelayMs(
  schedule: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number | null {
  const seconds = schedule[attempt];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (1 + JITTER * random()));
}
