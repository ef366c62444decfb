import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as workflows from '../../domain/workflows/service.ts';
import { presentWorkflow } from '../../presenters/workflow.ts';
import { WorkflowDocument, WorkflowList } from '../responses/schema.ts';
import { CreateWorkflowBody, UpdateWorkflowBody } from '../schemas/workflow.ts';

type Params = { Params: { id: string } };

export async function workflowRoutes(app: FastifyInstance): Promise<void> {
  const write = { permission: 'can_manage_workflows', resourceType: 'workflow' } as const;

  app.get('/workflows', { schema: { response: { 200: WorkflowList } } }, async (request) => ({
    data: (await workflows.listWorkflows(request.scope)).map(presentWorkflow),
  }));

  app.get<Params>(
    '/workflows/:id',
    { schema: { response: { 200: WorkflowDocument } } },
    async (request) => ({
      data: presentWorkflow(await workflows.findWorkflow(request.scope, request.params.id)),
    }),
  );

  app.post<{ Body: Static<typeof CreateWorkflowBody> }>(
    '/workflows',
    { schema: { body: CreateWorkflowBody, response: { 201: WorkflowDocument } }, config: write },
    async (request, reply) => {
      const data = request.body.data;
      const created = presentWorkflow(
        await workflows.createWorkflow(request.scope, {
          id: data.id,
          attributes: data.attributes ?? {},
        }),
      );
      return reply.status(201).send({ data: created });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateWorkflowBody> }>(
    '/workflows/:id',
    { schema: { body: UpdateWorkflowBody, response: { 200: WorkflowDocument } }, config: write },
    async (request) => ({
      data: presentWorkflow(
        await workflows.updateWorkflow(request.scope, request.params.id, {
          attributes: request.body.data.attributes ?? {},
        }),
      ),
    }),
  );

  app.delete<Params>(
    '/workflows/:id',
    { schema: { response: { 200: WorkflowDocument } }, config: write },
    async (request) => ({
      data: presentWorkflow(await workflows.destroyWorkflow(request.scope, request.params.id)),
    }),
  );
}
