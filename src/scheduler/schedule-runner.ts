import type { Db } from '../db/client.ts';
import {
  environmentsWithDueSchedules,
  runDueSchedules,
} from '../domain/items/publishing/schedule-runs.ts';
import type { Logger } from '../worker-logger.ts';

export type ScheduleRunner = {
  /** Stops polling and waits for a run in progress to commit. */
  stop(): Promise<void>;
};

/**
 * Runs due scheduled publications and unpublishings (domain/items/schedule-runs.ts) in
 * every environment, polling every `pollMs`. Any number of runners, in any number of
 * processes, can share one PostgreSQL database: each schedule is claimed in the
 * transaction that runs it. Runs are sequential within a runner (one poll at a time).
 */
export function startScheduleRunner(options: {
  db: Db;
  logger: Logger;
  pollMs: number;
}): ScheduleRunner {
  const { db, logger, pollMs } = options;
  let running = true;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> | null = null;

  const poll = async () => {
    for (const environment of await environmentsWithDueSchedules(db)) {
      if (!running) return;
      const ran = await runDueSchedules(db, environment, logger);
      if (ran > 0) logger.info({ environment: environment.id, ran }, 'ran due schedules');
    }
  };

  const next = () => {
    timer = null;
    current = poll()
      .catch((error: unknown) => logger.error({ err: error }, 'could not run due schedules'))
      .finally(() => {
        current = null;
        if (running) timer = setTimeout(next, pollMs);
      });
  };
  timer = setTimeout(next, 0);

  return {
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
