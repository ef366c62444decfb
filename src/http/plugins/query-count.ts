import type { FastifyInstance, FastifyRequest } from 'fastify';
import { countingQueries, queriesSent } from '../../db/query/query-count.ts';

/**
 * With FIELDHOUSE_COUNT_QUERIES=1, every answer carries `x-fieldhouse-queries`: the
 * statements sent while it was being prepared. Exact when requests come one at a time
 * (as the latency bench sends them); concurrent requests would share the count.
 */
export function registerQueryCountHeader(app: FastifyInstance): void {
  if (!countingQueries) return;
  const atStart = new WeakMap<FastifyRequest, number>();
  // Callback hooks: an async one costs a promise and a tick, which the latency bench
  // (that turns counting on) would charge to the request.
  app.addHook('onRequest', (request, _reply, done) => {
    atStart.set(request, queriesSent());
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-fieldhouse-queries', String(queriesSent() - (atStart.get(request) ?? 0)));
    done(null, payload);
  });
}
