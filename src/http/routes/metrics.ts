import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics.ts';

/** The Prometheus text exposition format. */
const MetricsText = {
  description: 'Prometheus metrics',
  content: { 'text/plain': { schema: Type.String() } },
};

/**
 * Prometheus scrape endpoint, served without a token like the health probes: keep it on
 * a private network (it tells queue sizes and route timings, never secrets).
 */
export async function metricsRoutes(app: FastifyInstance, metrics: Metrics): Promise<void> {
  app.get(
    '/metrics',
    { config: { public: true }, schema: { response: { 200: MetricsText } } },
    async (_request, reply) => {
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
}
