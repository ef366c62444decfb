import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import * as filters from '../../domain/item-type-filters/service.ts';
import { presentItemTypeFilter } from '../../presenters/item-type-filter.ts';
import { relationshipIds } from '../jsonapi.ts';
import { ItemTypeFilterDocument, ItemTypeFilterList } from '../responses/project.ts';
import { CreateItemTypeFilterBody, UpdateItemTypeFilterBody } from '../schemas/item-type-filter.ts';

type Params = { Params: { id: string } };

export async function itemTypeFilterRoutes(app: FastifyInstance): Promise<void> {
  // Writes need can_manage_shared_filters (PROPOSAL): tokens act for no single user, so
  // a filter a token saves is seen by the whole project, as a shared one is.
  const write = {
    permission: 'can_manage_shared_filters',
    resourceType: 'item_type_filter',
  } as const;

  app.get(
    '/item-type-filters',
    { schema: { response: { 200: ItemTypeFilterList } } },
    async (request) => ({
      data: (await filters.listItemTypeFilters(request.scope)).map(presentItemTypeFilter),
    }),
  );

  app.get<Params>(
    '/item-type-filters/:id',
    { schema: { response: { 200: ItemTypeFilterDocument } } },
    async (request) => ({
      data: presentItemTypeFilter(
        await filters.findItemTypeFilter(request.scope, request.params.id),
      ),
    }),
  );

  app.post<{ Body: Static<typeof CreateItemTypeFilterBody> }>(
    '/item-type-filters',
    {
      schema: { body: CreateItemTypeFilterBody, response: { 201: ItemTypeFilterDocument } },
      config: write,
    },
    async (request, reply) => {
      const data = request.body.data;
      const created = presentItemTypeFilter(
        await filters.createItemTypeFilter(request.scope, {
          id: data.id,
          attributes: data.attributes ?? {},
          relationships: relationshipIds(data.relationships),
        }),
      );
      return reply.status(201).send({ data: created });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateItemTypeFilterBody> }>(
    '/item-type-filters/:id',
    {
      schema: { body: UpdateItemTypeFilterBody, response: { 200: ItemTypeFilterDocument } },
      config: write,
    },
    async (request) => {
      const data = request.body.data;
      return {
        data: presentItemTypeFilter(
          await filters.updateItemTypeFilter(request.scope, request.params.id, {
            attributes: data.attributes ?? {},
            relationships: relationshipIds(data.relationships),
          }),
        ),
      };
    },
  );

  app.delete<Params>(
    '/item-type-filters/:id',
    { schema: { response: { 200: ItemTypeFilterDocument } }, config: write },
    async (request) => ({
      data: presentItemTypeFilter(
        await filters.destroyItemTypeFilter(request.scope, request.params.id),
      ),
    }),
  );
}
