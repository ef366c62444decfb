import type { FastifyReply, FastifyRequest } from 'fastify';
import { storeJobResult } from '../domain/jobs/jobs.ts';
import type { AppDeps } from './types.ts';

/**
 * Sends the outcome of a change. Changes always complete before the answer
 * (synchronous by default); with FIELDHOUSE_ASYNC_JOBS on, endpoints
 * DatoCMS runs as jobs answer 202 + a job whose result is already stored, so
 * clients see the DatoCMS-identical flow.
 */
export async function sendResult(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  document: unknown,
): Promise<FastifyReply> {
  if (deps.config.asyncJobs && request.routeOptions.config.asyncJob && request.actor) {
    const jobId = await storeJobResult(deps.db, request.actor.token.id, status, document);
    return reply.status(202).send({ data: { type: 'job', id: jobId } });
  }
  return reply.status(status).send(document);
}
