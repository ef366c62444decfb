import type { FastifyInstance, FastifyRequest } from 'fastify';
import { countingQueries, queriesSent } from '../../db/query-count.ts';

/**
 * With FIELDHOUSE_COUNT_QUERIES=1, every answer carries `x-fieldhouse-queries`: the
 * statements sent while it was being prepared. Exact when requests come one at a time
 * (as the latency bench sends them); concurrent requests would share the count.
 */
export function registerQueryCountHeader(app: FastifyInstance): void {
  if (!countingQueries) return;
  const atStart = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', async (request) => {
    atStart.set(request, queriesSent());
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-fieldhouse-queries', String(queriesSent() - (atStart.get(request) ?? 0)));
  });
}
