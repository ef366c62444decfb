import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RoleInput } from '../../domain/auth/role-rules.ts';
import * as roles from '../../domain/auth/roles.ts';
import { presentRole } from '../../presenters/role.ts';
import { actorOf } from '../actor.ts';
import { RoleDocument, RoleList } from '../responses/project.ts';
import { CreateRoleBody, UpdateRoleBody } from '../schemas/role.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };
type Body = Static<typeof CreateRoleBody> | Static<typeof UpdateRoleBody>;

function toInput(body: Body): RoleInput {
  const { attributes = {}, relationships } = body.data;
  return {
    attributes,
    inheritsFrom: relationships?.inherits_permissions_from?.data.map((role) => role.id),
  };
}

export async function roleRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  // Reading roles needs the right to manage them too: a role reveals what its tokens may do.
  const config = { permission: 'can_manage_users' } as const;
  const write = { ...config, resourceType: 'role' } as const;

  app.get('/roles', { schema: { response: { 200: RoleList } }, config }, async () => ({
    data: (await roles.listRoles(db)).map(presentRole),
  }));

  app.get<Params>(
    '/roles/:id',
    { schema: { response: { 200: RoleDocument } }, config },
    async (request) => ({
      data: presentRole(await roles.findRole(db, request.params.id)),
    }),
  );

  app.post<{ Body: Static<typeof CreateRoleBody> }>(
    '/roles',
    { schema: { body: CreateRoleBody, response: { 201: RoleDocument } }, config: write },
    async (request, reply) => {
      const data = presentRole(await roles.createRole(db, actorOf(request), toInput(request.body)));
      return reply.status(201).send({ data });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateRoleBody> }>(
    '/roles/:id',
    { schema: { body: UpdateRoleBody, response: { 200: RoleDocument } }, config: write },
    async (request) => ({
      data: presentRole(
        await roles.updateRole(db, actorOf(request), request.params.id, toInput(request.body)),
      ),
    }),
  );

  app.post<Params>(
    '/roles/:id/duplicate',
    { schema: { response: { 201: RoleDocument } }, config },
    async (request, reply) => {
      const data = presentRole(await roles.duplicateRole(db, actorOf(request), request.params.id));
      return reply.status(201).send({ data });
    },
  );

  app.delete<Params>(
    '/roles/:id',
    { schema: { response: { 200: RoleDocument } }, config },
    async (request) => ({
      data: presentRole(await roles.destroyRole(db, actorOf(request), request.params.id)),
    }),
  );
}
