import type { FastifyBaseLogger } from 'fastify';
import { exitAfterLogs } from '../log-output.ts';

/** How long a graceful shutdown may take before the process gives up and exits 1. */
export const SHUTDOWN_TIMEOUT_MS = 20_000;
// A forced exit reports the signal the way shells do: 128 + its number.
const FORCED_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

type Stoppable = { app: { log: FastifyBaseLogger }; close(): Promise<void> };

/**
 * On SIGTERM or SIGINT, stops gracefully (no new connections, in-flight requests and
 * deliveries finish, leases are released, the database closes) and exits 0. A second
 * signal exits at once; a shutdown still running after the time limit exits 1. No exit
 * waits long for a stdout nobody reads: the log lines it does not take are lost
 * (log-output.ts).
 */
export function exitGracefullyOnSignals(server: Stoppable, timeoutMs = SHUTDOWN_TIMEOUT_MS): void {
  const log = server.app.log;
  let stopping = false;
  const onSignal = (signal: keyof typeof FORCED_EXIT_CODES) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting without waiting for the shutdown');
      exitAfterLogs(FORCED_EXIT_CODES[signal], 0);
    }
    stopping = true;
    log.info({ signal, timeoutMs }, 'shutting down');
    setTimeout(() => {
      log.error({ timeoutMs }, 'shutdown did not finish in time: exiting');
      exitAfterLogs(1, 0);
    }, timeoutMs);
    server.close().then(
      () => {
        log.info('shutdown complete');
        exitAfterLogs(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        exitAfterLogs(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
