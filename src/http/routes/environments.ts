import type { FastifyInstance } from 'fastify';
import * as environments from '../../domain/environments/service.ts';
import type { AppDeps } from '../types.ts';

export async function environmentRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;

  app.get('/environments', async () => ({ data: await environments.listEnvironments(db) }));

  app.get<{ Params: { id: string } }>('/environments/:id', async (request) => ({
    data: await environments.findEnvironment(db, request.params.id),
  }));
}
