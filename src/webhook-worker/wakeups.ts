import pg from 'pg';
import { WEBHOOK_CALLS_CHANNEL } from '../events/channel.ts';
import type { Logger } from '../worker-logger.ts';

const RECONNECT_DELAY_MS = 1000;

export type Wakeups = { close(): Promise<void> };

/**
 * LISTENs on a dedicated PostgreSQL connection and calls `onWake` for every
 * notification the outbox sends on commit. A lost connection is reopened; polling
 * covers the gap, and `onWake` runs after each (re)connect to catch up.
 */
export function listenForWakeups(url: string, onWake: () => void, logger: Logger): Wakeups {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const reconnectLater = (failed: pg.Client) => {
    if (closed || client !== failed) return;
    client = null;
    failed.end().catch(() => undefined);
    retry = setTimeout(connect, RECONNECT_DELAY_MS);
  };

  function connect(): void {
    retry = null;
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('notification', () => onWake());
    next.on('error', (error) => {
      logger.warn({ err: error }, 'webhook wake-up connection lost; polling until it is back');
      reconnectLater(next);
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${WEBHOOK_CALLS_CHANNEL}`))
      .then(() => onWake())
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'could not LISTEN for webhook calls; polling meanwhile');
        reconnectLater(next);
      });
  }

  connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}

/** The embedded database's NOTIFYs, delivered in this process: no connection to manage. */
export function listenInProcessForWakeups(
  listen: (channel: string, onNotify: () => void) => Promise<() => Promise<void>>,
  onWake: () => void,
  logger: Logger,
): Wakeups {
  const unlisten = listen(WEBHOOK_CALLS_CHANNEL, onWake);
  unlisten.catch((error: unknown) =>
    logger.warn({ err: error }, 'could not LISTEN for webhook calls; polling instead'),
  );
  return {
    async close() {
      const stop = await unlisten.catch(() => null);
      await stop?.();
    },
  };
}
