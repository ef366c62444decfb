import type { FastifyInstance } from 'fastify';
import { findJobResult } from '../../domain/jobs/jobs.ts';
import { actorOf } from '../actor.ts';
import { JobResultDocument } from '../responses/project.ts';
import type { AppDeps } from '../types.ts';

export async function jobResultRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get<{ Params: { id: string } }>(
    '/job-results/:id',
    { schema: { response: { 200: JobResultDocument } } },
    async (request) => {
      const job = await findJobResult(deps.db, actorOf(request).token.id, request.params.id);
      return {
        data: {
          type: 'job_result',
          id: request.params.id,
          attributes: { status: job.status, payload: job.payload },
        },
      };
    },
  );
}
