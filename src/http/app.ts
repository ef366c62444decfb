import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import { assetService } from '../assets/assets-service.ts';
import { deliveryRoutes } from '../cda/http/routes.ts';
import { uploadSettings } from '../domain/uploads/upload-settings.ts';
import { logStream } from '../log-output.ts';
import { createMetrics, type Metrics } from '../metrics.ts';
import { MemoryRateLimitStore } from '../rate-limit/memory-store.ts';
import { PostgresRateLimitStore } from '../rate-limit/postgres-store.ts';
import { VERSION } from '../version.ts';
import { documentJson } from './document-json.ts';
import { openApiRoutes, registerOpenApi } from './openapi.ts';
import { registerAssumedTokenRoutes } from './plugins/assumed-token.ts';
import { registerJsonBodyParser } from './plugins/body-parser.ts';
import { consoleRoutes } from './plugins/console.ts';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  registerErrorHandler,
} from './plugins/error-handler.ts';
import { registerProtocolHooks } from './plugins/protocol.ts';
import { registerQueryCountHeader } from './plugins/query-count.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerUnstorableInputGuard } from './plugins/unstorable-input.ts';
import { parseQueryString } from './query-string.ts';
import { accessTokenRoutes } from './routes/access-tokens.ts';
import { assetRoutes } from './routes/assets.ts';
import { environmentRoutes } from './routes/environments.ts';
import { fieldRoutes } from './routes/fields.ts';
import { fieldsetRoutes } from './routes/fieldsets.ts';
import { healthRoutes } from './routes/health.ts';
import { itemScheduleRoutes } from './routes/item-schedules.ts';
import { itemTypeFilterRoutes } from './routes/item-type-filters.ts';
import { itemTypeRoutes } from './routes/item-types.ts';
import { itemRoutes } from './routes/items/index.ts';
import { jobResultRoutes } from './routes/job-results.ts';
import { menuItemRoutes } from './routes/menu-items.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { pluginRoutes } from './routes/plugins.ts';
import { roleRoutes } from './routes/roles.ts';
import { schemaMenuItemRoutes } from './routes/schema-menu-items.ts';
import { siteRoutes } from './routes/site.ts';
import { uploadCollectionRoutes } from './routes/upload-collections.ts';
import { uploadFilterRoutes } from './routes/upload-filters.ts';
import { uploadReferenceRoutes } from './routes/upload-references.ts';
import { uploadRequestRoutes } from './routes/upload-requests.ts';
import { uploadSinkRoutes } from './routes/upload-sink.ts';
import { uploadTagRoutes } from './routes/upload-tags.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { webhookCallRoutes } from './routes/webhook-calls.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { workflowRoutes } from './routes/workflows.ts';
import type { AppDeps } from './types.ts';
import { AJV_OPTIONS, lazyValidatorFactory } from './validators.ts';

const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * `metrics` is shared with an in-process delivery worker; a fresh registry otherwise.
 * `onRoute` sees every route as it registers (the route-permission test walks them).
 */
export async function buildApp(
  deps: AppDeps,
  metrics: Metrics = createMetrics(deps.db),
  onRoute?: (route: RouteOptions) => void,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.config.logLevel, stream: logStream() },
    genReqId: () => randomUUID(),
    // One line per request (below) instead of Fastify's two: halves the logging cost.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Refusals before routing and from Node's HTTP parser answer api_error documents too.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    routerOptions: {
      ignoreTrailingSlash: true,
      querystringParser: parseQueryString,
    },
    ajv: AJV_OPTIONS,
    // Each route's validators compile on its first request, not all of them at start.
    schemaController: {
      compilersFactory: {
        buildValidator: lazyValidatorFactory(),
        // Response schemas document the answers (openapi.json). The reply serializer
        // below writes every answer, so none is compiled from them: what is sent is
        // never stripped or reordered by a schema.
        buildSerializer: () => () => documentJson,
      },
    },
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setReplySerializer(documentJson);
  registerQueryCountHeader(app);
  app.addHook('onResponse', async (request, reply) => {
    // Unmatched URLs share one label, so scanners cannot grow the series without bound.
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    metrics.httpDuration
      .labels(request.method, route, String(reply.statusCode))
      .observe(reply.elapsedTime / 1000);
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: reply.elapsedTime,
      },
      'request completed',
    );
  });
  registerJsonBodyParser(app);
  registerErrorHandler(app);
  registerUnstorableInputGuard(app);
  registerProtocolHooks(app, deps.db);
  registerAssumedTokenRoutes(app, deps.db);
  if (deps.config.rateLimit) {
    // Embedded: this process serves every request, so counting in memory is exact.
    const store =
      deps.engine === 'postgres' ? new PostgresRateLimitStore(deps.db) : new MemoryRateLimitStore();
    registerRateLimit(app, deps.config.rateLimit, store);
  }
  await registerOpenApi(app, VERSION);
  await app.register(openApiRoutes);
  await app.register(healthRoutes, deps);
  await app.register(metricsRoutes, metrics);
  await app.register(itemTypeRoutes, deps);
  await app.register(fieldRoutes, deps);
  await app.register(fieldsetRoutes, deps);
  await app.register(jobResultRoutes, deps);
  await app.register(environmentRoutes, deps);
  await app.register(siteRoutes, deps);
  await app.register(workflowRoutes, deps);
  await app.register(pluginRoutes, deps);
  await app.register(itemTypeFilterRoutes, deps);
  await app.register(uploadFilterRoutes, deps);
  await app.register(uploadCollectionRoutes, deps);
  await app.register(uploadTagRoutes, deps);
  await app.register(menuItemRoutes, deps);
  await app.register(schemaMenuItemRoutes, deps);
  await app.register(roleRoutes, deps);
  await app.register(accessTokenRoutes, deps);
  await app.register(webhookRoutes, deps);
  await app.register(webhookCallRoutes, deps);
  await app.register(itemRoutes, deps);
  await app.register(itemScheduleRoutes);
  const uploadDeps = {
    ...deps,
    uploads: uploadSettings(deps.db, deps.config, () => listeningOrigin(app)),
  };
  await app.register(deliveryRoutes, uploadDeps);
  await app.register(uploadRequestRoutes, uploadDeps);
  await app.register(uploadSinkRoutes, uploadDeps);
  await app.register(uploadRoutes, uploadDeps);
  await app.register(
    assetRoutes,
    assetService(deps.db, uploadDeps.uploads.storage, deps.config.images, (outcome) =>
      metrics.renditions.inc({ outcome }),
    ),
  );
  await app.register(uploadReferenceRoutes, deps);
  if (deps.config.consolePath) {
    await app.register(consoleRoutes, {
      path: deps.config.consolePath,
      cacheDir: deps.config.cacheDir,
    });
  }
  return app;
}

/** Where this process listens, as an origin (a wildcard address reads as localhost). */
function listeningOrigin(app: FastifyInstance): string {
  const address = app.addresses()[0];
  if (!address || typeof address === 'string') return 'http://localhost';
  const host = ['0.0.0.0', '::'].includes(address.address)
    ? 'localhost'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}
