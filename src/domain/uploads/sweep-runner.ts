import type { Db } from '../../db/client.ts';
import type { Storage } from '../../storage/storage.ts';
import { SWEEP_BATCH, sweepUnreferencedBytes, sweepUnusedRequests } from './sweep-bytes.ts';

type Logger = {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
};

export type UploadSweeper = {
  /** Stops the schedule and waits for a batch in progress to end. */
  stop(): Promise<void>;
};

/** Runs `batch` until it handles less than a full batch, or `going` turns false. */
async function drain(batch: () => Promise<number>, going: () => boolean): Promise<number> {
  let total = 0;
  for (;;) {
    const handled = await batch();
    total += handled;
    if (handled < SWEEP_BATCH || !going()) return total;
  }
}

/**
 * In worker processes, every `intervalMs` (the first pass at once): deletes the bytes no
 * environment names any more and those of upload requests never used. Several workers
 * may sweep at once: each batch skips the rows another holds.
 */
export function startUploadSweeper(options: {
  db: Db;
  storage: Storage;
  logger: Logger;
  intervalMs: number;
}): UploadSweeper {
  const { db, storage, logger, intervalMs } = options;
  let running = true;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> | null = null;
  const going = () => running;

  const pass = async () => {
    const unreferenced = await drain(() => sweepUnreferencedBytes(db, storage), going);
    const unused = await drain(() => sweepUnusedRequests(db, storage, new Date()), going);
    if (unreferenced + unused > 0)
      logger.info({ unreferenced, unused }, 'deleted upload bytes no upload names');
  };
  const next = () => {
    timer = null;
    current = pass()
      .catch((error: unknown) => logger.error({ err: error }, 'could not sweep upload bytes'))
      .finally(() => {
        current = null;
        if (running) timer = setTimeout(next, intervalMs);
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
