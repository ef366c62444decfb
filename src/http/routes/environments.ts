import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EnvironmentsAccess } from '../../domain/auth/environment-reach.ts';
import { destroyEnvironment } from '../../domain/environments/destroy-environment.ts';
import { findEnvironment, listEnvironments } from '../../domain/environments/environment-rows.ts';
import { startFork } from '../../domain/environments/fork-environment.ts';
import * as maintenance from '../../domain/environments/maintenance.ts';
import { promoteEnvironment } from '../../domain/environments/promote-environment.ts';
import { renameEnvironment } from '../../domain/environments/rename-environment.ts';
import { presentEnvironment, presentMaintenanceMode } from '../../presenters/environment.ts';
import { sendResult } from '../respond.ts';
import {
  EnvironmentDocument,
  EnvironmentList,
  MaintenanceModeDocument,
} from '../responses/project.ts';
import { OrJob } from '../schemas/documents.ts';
import {
  ActivateMaintenanceModeQuery,
  EnvironmentIdBody,
  ForkEnvironmentQuery,
} from '../schemas/environment.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };
type IdBody = { Body: Static<typeof EnvironmentIdBody> };

/** The caller's role's environments_access, which every environment operation judges. */
function accessOf(request: FastifyRequest): EnvironmentsAccess {
  return request.actor?.environmentsAccess ?? 'none';
}

// Environments are project-wide: these routes name their environment in the path and
// ignore X-Environment (which still has to name one the token may enter). Each write is
// also judged on the environments it acts on: the role must reach them too.
export async function environmentRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const manage = { permission: 'can_manage_environments' } as const;
  const promote = { permission: 'can_promote_environments' } as const;

  app.get('/environments', { schema: { response: { 200: EnvironmentList } } }, async () => ({
    data: (await listEnvironments(db)).map(presentEnvironment),
  }));

  app.get<Params>(
    '/environments/:id',
    { schema: { response: { 200: EnvironmentDocument } } },
    async (request) => ({
      data: presentEnvironment(await findEnvironment(db, request.params.id)),
    }),
  );

  app.post<Params & IdBody & { Querystring: Static<typeof ForkEnvironmentQuery> }>(
    '/environments/:id/fork',
    {
      schema: {
        body: EnvironmentIdBody,
        querystring: ForkEnvironmentQuery,
        response: OrJob(200, EnvironmentDocument),
      },
      config: { ...manage, resourceType: 'environment', asyncJob: true },
    },
    async (request, reply) => {
      const fork = await startFork(db, accessOf(request), request.params.id, request.body.data.id, {
        fast: request.query.fast === 'true',
        engine: deps.engine,
      });
      if (request.query.immediate_return === 'true') {
        fork.completion.catch((error: unknown) => {
          request.log.error({ err: error }, `fork into "${fork.environment.id}" failed`);
        });
        return reply.status(200).send({ data: presentEnvironment(fork.environment) });
      }
      return sendResult(deps, request, reply, 200, {
        data: presentEnvironment(await fork.completion),
      });
    },
  );

  app.put<Params>(
    '/environments/:id/promote',
    { schema: { response: { 200: EnvironmentDocument } }, config: promote },
    async (request) => ({
      data: presentEnvironment(await promoteEnvironment(db, accessOf(request), request.params.id)),
    }),
  );

  app.put<Params & IdBody>(
    '/environments/:id/rename',
    {
      schema: { body: EnvironmentIdBody, response: { 200: EnvironmentDocument } },
      config: { ...manage, resourceType: 'environment' },
    },
    async (request) => ({
      data: presentEnvironment(
        await renameEnvironment(db, accessOf(request), request.params.id, request.body.data.id),
      ),
    }),
  );

  app.delete<Params>(
    '/environments/:id',
    {
      schema: { response: OrJob(200, EnvironmentDocument) },
      config: { ...manage, asyncJob: true },
    },
    async (request, reply) => {
      const data = presentEnvironment(
        await destroyEnvironment(db, accessOf(request), request.params.id),
      );
      return sendResult(deps, request, reply, 200, { data });
    },
  );

  app.get(
    '/maintenance-mode',
    { schema: { response: { 200: MaintenanceModeDocument } } },
    async () => ({
      data: presentMaintenanceMode(await maintenance.findMaintenanceMode(db)),
    }),
  );

  app.put<{ Querystring: Static<typeof ActivateMaintenanceModeQuery> }>(
    '/maintenance-mode/activate',
    {
      schema: {
        querystring: ActivateMaintenanceModeQuery,
        response: { 200: MaintenanceModeDocument },
      },
      config: promote,
    },
    async (request) => ({
      data: presentMaintenanceMode(
        await maintenance.setMaintenanceMode(db, accessOf(request), true),
      ),
    }),
  );

  app.put(
    '/maintenance-mode/deactivate',
    { schema: { response: { 200: MaintenanceModeDocument } }, config: promote },
    async (request) => ({
      data: presentMaintenanceMode(
        await maintenance.setMaintenanceMode(db, accessOf(request), false),
      ),
    }),
  );
}
