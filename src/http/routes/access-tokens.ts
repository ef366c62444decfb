import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as accessTokens from '../../domain/auth/access-tokens.ts';
import { presentIssuedToken } from '../../presenters/access-token.ts';
import { actorOf } from '../actor.ts';
import { AccessTokenDocument, AccessTokenList } from '../responses/project.ts';
import {
  CreateAccessTokenBody,
  DestroyAccessTokenQuery,
  UpdateAccessTokenBody,
} from '../schemas/access-token.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };
type Attributes = Static<typeof CreateAccessTokenBody>['data']['attributes'];

function flags(attributes: Attributes) {
  return {
    name: attributes.name,
    canAccessCda: attributes.can_access_cda,
    canAccessCdaPreview: attributes.can_access_cda_preview,
    canAccessCma: attributes.can_access_cma,
  };
}

/** The token named to inherit what the deleted one owned, whichever way the caller named it. */
function destinationTokenId(query: Static<typeof DestroyAccessTokenQuery>): string | undefined {
  if (query.destination_access_token_id !== undefined) return query.destination_access_token_id;
  return query.destination_user_type === 'access_token' ? query.destination_user_id : undefined;
}

export async function accessTokenRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const config = { permission: 'can_manage_access_tokens' } as const;
  const write = { ...config, resourceType: 'access_token' } as const;

  app.get(
    '/access_tokens',
    { schema: { response: { 200: AccessTokenList } }, config },
    async () => ({
      data: (await accessTokens.listAccessTokens(db)).map(presentIssuedToken),
    }),
  );

  app.get<Params>(
    '/access_tokens/:id',
    { schema: { response: { 200: AccessTokenDocument } }, config },
    async (request) => ({
      data: presentIssuedToken(await accessTokens.findAccessToken(db, request.params.id)),
    }),
  );

  app.post<{ Body: Static<typeof CreateAccessTokenBody> }>(
    '/access_tokens',
    {
      schema: { body: CreateAccessTokenBody, response: { 201: AccessTokenDocument } },
      config: write,
    },
    async (request, reply) => {
      const { attributes, relationships } = request.body.data;
      const issued = await accessTokens.createAccessToken(db, actorOf(request), {
        ...flags(attributes),
        roleId: relationships.role.data.id,
      });
      return reply.status(201).send({ data: presentIssuedToken(issued) });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateAccessTokenBody> }>(
    '/access_tokens/:id',
    {
      schema: { body: UpdateAccessTokenBody, response: { 200: AccessTokenDocument } },
      config: write,
    },
    async (request) => {
      const { attributes, relationships } = request.body.data;
      const updated = await accessTokens.updateAccessToken(
        db,
        actorOf(request),
        request.params.id,
        {
          ...flags(attributes),
          roleId: relationships?.role.data.id,
        },
      );
      return { data: presentIssuedToken(updated) };
    },
  );

  app.post<Params>(
    '/access_tokens/:id/regenerate_token',
    { schema: { response: { 200: AccessTokenDocument } }, config },
    async (request) => ({
      data: presentIssuedToken(
        await accessTokens.regenerateAccessToken(db, actorOf(request), request.params.id),
      ),
    }),
  );

  app.delete<Params & { Querystring: Static<typeof DestroyAccessTokenQuery> }>(
    '/access_tokens/:id',
    {
      schema: { querystring: DestroyAccessTokenQuery, response: { 200: AccessTokenDocument } },
      config,
    },
    async (request) => {
      const destroyed = await accessTokens.destroyAccessToken(
        db,
        actorOf(request),
        request.params.id,
        destinationTokenId(request.query),
      );
      return { data: presentIssuedToken(destroyed) };
    },
  );
}
