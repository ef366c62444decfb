import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { type ItemListQuery, listItems } from '../../domain/items/list.ts';
import * as items from '../../domain/items/service.ts';
import { sendResult } from '../respond.ts';
import { CreateItemBody, UpdateItemBody } from '../schemas/item.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };
type RawQuery = Record<string, unknown>;

function text(query: RawQuery, key: string): string | undefined {
  const value = query[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new DomainError('INVALID_PARAMS', `${key} must be a string`);
  return value;
}

function integer(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new DomainError('INVALID_PARAMS', `${name} must be a non-negative integer`);
  return Number(value);
}

/** `filter[…]`, `page[…]` as qs parses them (the client flattens nested objects). */
function listQuery(query: RawQuery): ItemListQuery {
  const filter = (query.filter ?? {}) as RawQuery;
  const page = (query.page ?? {}) as RawQuery;
  return {
    type: text(filter, 'type'),
    ids: text(filter, 'ids'),
    orderBy: text(query, 'order_by'),
    version: text(query, 'version'),
    locale: text(query, 'locale'),
    offset: integer(page.offset, 'page[offset]'),
    limit: integer(page.limit, 'page[limit]'),
  };
}

function creatorOf(request: FastifyRequest): string | null {
  return request.actor?.tokenId ?? null;
}

export async function itemRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const itemWrite = { resourceType: 'item' } as const;

  app.get('/items', async (request) => {
    const { data, total } = await listItems(request.scope, listQuery(request.query as RawQuery));
    return { data, meta: { total_count: total } };
  });

  app.get<Params>('/items/:id', async (request) => ({
    data: await items.findItem(request.scope, request.params.id, {
      version: text(request.query as RawQuery, 'version'),
    }),
  }));

  app.post<{ Body: Static<typeof CreateItemBody> }>(
    '/items',
    { schema: { body: CreateItemBody }, config: itemWrite },
    async (request, reply) => {
      const data = request.body.data;
      const entity = await items.createItem(request.scope, creatorOf(request), {
        id: data.id,
        itemType: data.relationships?.item_type.data?.id,
        attributes: data.attributes ?? {},
        meta: data.meta ?? {},
      });
      return reply.status(201).send({ data: entity });
    },
  );

  app.put<Params & { Body: Static<typeof UpdateItemBody> }>(
    '/items/:id',
    { schema: { body: UpdateItemBody }, config: itemWrite },
    async (request) => {
      const data = request.body.data;
      const itemType = data.relationships?.item_type?.data?.id;
      return {
        data: await items.updateItem(request.scope, creatorOf(request), request.params.id, {
          itemType,
          attributes: data.attributes ?? {},
          meta: data.meta ?? {},
        }),
      };
    },
  );

  app.delete<Params>('/items/:id', { config: { asyncJob: true } }, async (request, reply) => {
    const entity = await items.destroyItem(request.scope, request.params.id);
    return sendResult(deps, request, reply, 200, { data: entity });
  });
}
