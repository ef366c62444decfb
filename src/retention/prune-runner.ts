import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { environmentRef } from '../db/environment-scope.ts';
import { pruneVersions, VERSION_PRUNE_BATCH } from '../domain/items/versions/version-retention.ts';
import type { Logger } from '../worker-logger.ts';
import { PRUNE_BATCH, pruneDeliveredEvents, pruneWebhookCalls } from './pruning.ts';

export type Retention = Pick<Config, 'versionRetentionDays' | 'webhookLogRetentionDays'>;

export type Pruned = { webhookCalls: number; events: number; versions: number };

/** Runs `batch` until a batch deletes less than a full one, or `going` turns false. */
async function drain(batch: () => Promise<number>, full: number, going: () => boolean) {
  let total = 0;
  for (;;) {
    const deleted = await batch();
    total += deleted;
    if (deleted < full || !going()) return total;
  }
}

/**
 * One pruning pass: finished webhook calls past the log's retention, then the events no
 * call names any more, then every ready environment's versions past their retention.
 * Batches are short and skip what another worker holds, so passes of several workers
 * may overlap. `going` ends the pass early (the process is stopping).
 */
export async function pruneOnce(
  db: Db,
  retention: Retention,
  going: () => boolean = () => true,
): Promise<Pruned> {
  const webhookCalls = await drain(
    () => pruneWebhookCalls(db, retention.webhookLogRetentionDays),
    PRUNE_BATCH,
    going,
  );
  const events = await drain(() => pruneDeliveredEvents(db), PRUNE_BATCH, going);
  const environments = await db
    .selectFrom('environments')
    .select(['id', 'number', 'schema_name', 'is_primary'])
    .where('status', '=', 'ready')
    .execute();
  let versions = 0;
  for (const environment of environments) {
    if (!going()) break;
    const ref = environmentRef(environment);
    versions += await drain(
      () => pruneVersions(db, ref, retention.versionRetentionDays),
      VERSION_PRUNE_BATCH,
      going,
    );
  }
  return { webhookCalls, events, versions };
}

export type PruneRunner = {
  /** Stops the schedule and waits for a pass in progress to end its batch. */
  stop(): Promise<void>;
};

/**
 * Prunes on a schedule (every `pruneIntervalMs`, the first pass at once), in worker
 * processes: versions past their retention, delivered events and old delivery logs.
 */
export function startPruneRunner(options: {
  db: Db;
  logger: Logger;
  config: Retention & Pick<Config, 'pruneIntervalMs'>;
}): PruneRunner {
  const { db, logger, config } = options;
  let running = true;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> | null = null;

  const next = () => {
    timer = null;
    current = pruneOnce(db, config, () => running)
      .then((pruned) => {
        if (pruned.webhookCalls + pruned.events + pruned.versions > 0)
          logger.info(pruned, 'pruned versions, delivered events and old webhook calls');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'could not prune'))
      .finally(() => {
        current = null;
        if (running) timer = setTimeout(next, config.pruneIntervalMs);
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
