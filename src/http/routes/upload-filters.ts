import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as filters from '../../domain/upload-filters/service.ts';
import { presentUploadFilter } from '../../presenters/upload-filter.ts';
import { UploadFilterDocument, UploadFilterList } from '../responses/project.ts';
import { CreateUploadFilterBody, UpdateUploadFilterBody } from '../schemas/upload-filter.ts';

type Params = { Params: { id: string } };

export async function uploadFilterRoutes(app: FastifyInstance): Promise<void> {
  // As for item-type filters (PROPOSAL): a filter a token saves is seen by the project.
  const write = { permission: 'can_manage_shared_filters', resourceType: 'upload_filter' } as const;

  app.get(
    '/upload-filters',
    { schema: { response: { 200: UploadFilterList } } },
    async (request) => ({
      data: (await filters.listUploadFilters(request.scope)).map(presentUploadFilter),
    }),
  );

  app.get<Params>(
    '/upload-filters/:id',
    { schema: { response: { 200: UploadFilterDocument } } },
    async (request) => ({
      data: presentUploadFilter(await filters.findUploadFilter(request.scope, request.params.id)),
    }),
  );

  app.post<{ Body: Static<typeof CreateUploadFilterBody> }>(
    '/upload-filters',
    {
      schema: { body: CreateUploadFilterBody, response: { 201: UploadFilterDocument } },
      config: write,
    },
    async (request, reply) => {
      const data = request.body.data;
      const created = presentUploadFilter(
        await filters.createUploadFilter(request.scope, {
          id: data.id,
          attributes: data.attributes ?? {},
        }),
      );
      return reply.status(201).send({ data: created });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateUploadFilterBody> }>(
    '/upload-filters/:id',
    {
      schema: { body: UpdateUploadFilterBody, response: { 200: UploadFilterDocument } },
      config: write,
    },
    async (request) => ({
      data: presentUploadFilter(
        await filters.updateUploadFilter(request.scope, request.params.id, {
          attributes: request.body.data.attributes ?? {},
        }),
      ),
    }),
  );

  app.delete<Params>(
    '/upload-filters/:id',
    { schema: { response: { 200: UploadFilterDocument } }, config: write },
    async (request) => ({
      data: presentUploadFilter(
        await filters.destroyUploadFilter(request.scope, request.params.id),
      ),
    }),
  );
}
