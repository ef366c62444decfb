import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { logStream } from '../log-output.ts';
import type { Metrics } from '../metrics.ts';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  registerErrorHandler,
} from './plugins/error-handler.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes } from './routes/metrics.ts';
import type { AppDeps } from './types.ts';

/**
 * What a worker-only process listens for: the probes and metrics orchestrators scrape.
 * The API stays off, so every other URL is an INVALID_ENDPOINT 404.
 */
export async function buildOpsApp(deps: AppDeps, metrics: Metrics): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.config.logLevel, stream: logStream() },
    genReqId: () => randomUUID(),
    // Probes arrive every few seconds: logging each would drown the delivery logs.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  registerErrorHandler(app);
  await app.register(healthRoutes, deps);
  await app.register(metricsRoutes, metrics);
  return app;
}
