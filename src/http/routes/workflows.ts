import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as workflows from '../../domain/workflows/service.ts';
import { CreateWorkflowBody, UpdateWorkflowBody } from '../schemas/workflow.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };

export async function workflowRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const write = { permission: 'can_manage_workflows', resourceType: 'workflow' } as const;

  app.get('/workflows', async () => ({ data: await workflows.listWorkflows(db) }));

  app.get<Params>('/workflows/:id', async (request) => ({
    data: await workflows.findWorkflow(db, request.params.id),
  }));

  app.post<{ Body: Static<typeof CreateWorkflowBody> }>(
    '/workflows',
    { schema: { body: CreateWorkflowBody }, config: write },
    async (request, reply) => {
      const data = request.body.data;
      const created = await workflows.createWorkflow(db, {
        id: data.id,
        attributes: data.attributes ?? {},
      });
      return reply.status(201).send({ data: created });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateWorkflowBody> }>(
    '/workflows/:id',
    { schema: { body: UpdateWorkflowBody }, config: write },
    async (request) => ({
      data: await workflows.updateWorkflow(db, request.params.id, {
        attributes: request.body.data.attributes ?? {},
      }),
    }),
  );

  app.delete<Params>('/workflows/:id', { config: write }, async (request) => ({
    data: await workflows.destroyWorkflow(db, request.params.id),
  }));
}
