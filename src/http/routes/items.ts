import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { type BulkAction, bulkItems } from '../../domain/items/bulk.ts';
import {
  DEFAULT_PAGE_LIMIT,
  type ItemListQuery,
  listItems,
  MAX_PAGE_LIMIT,
} from '../../domain/items/list.ts';
import { publishItem, unpublishItem } from '../../domain/items/publishing.ts';
import { itemReferences } from '../../domain/items/references.ts';
import * as items from '../../domain/items/service.ts';
import { findVersion, listVersions, restoreVersion } from '../../domain/items/versions.ts';
import { sendResult } from '../respond.ts';
import { BulkItemsBody, CreateItemBody, UpdateItemBody } from '../schemas/item.ts';
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
    nested: nested(query),
    offset: integer(page.offset, 'page[offset]'),
    limit: integer(page.limit, 'page[limit]'),
  };
}

/** `nested=true` presents blocks whole (the client sends booleans as text). */
function nested(query: RawQuery): boolean {
  const value = text(query, 'nested');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new DomainError('INVALID_PARAMS', 'nested must be true or false');
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
      nested: nested(request.query as RawQuery),
    }),
  }));

  app.get<Params>('/items/:id/references', async (request) => ({
    data: await itemReferences(request.scope, request.params.id),
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

  // Validation without saving: every check of the write, then a rollback (204 when valid).
  app.post<{ Body: Static<typeof CreateItemBody> }>(
    '/items/validate',
    { schema: { body: CreateItemBody }, config: itemWrite },
    async (request, reply) => {
      const data = request.body.data;
      await items.createItem(
        request.scope,
        creatorOf(request),
        {
          itemType: data.relationships?.item_type.data?.id,
          attributes: data.attributes ?? {},
          meta: {},
        },
        { validateOnly: true },
      );
      return reply.status(204).send();
    },
  );

  app.post<Params & { Body: Static<typeof UpdateItemBody> }>(
    '/items/:id/validate',
    { schema: { body: UpdateItemBody }, config: itemWrite },
    async (request, reply) => {
      const data = request.body.data;
      await items.updateItem(
        request.scope,
        creatorOf(request),
        request.params.id,
        {
          itemType: data.relationships?.item_type?.data?.id,
          attributes: data.attributes ?? {},
          meta: {},
        },
        { validateOnly: true },
      );
      return reply.status(204).send();
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

  // Whole-record publishing; a selective (per-locale) body is not supported yet.
  app.put<Params>('/items/:id/publish', async (request) => ({
    data: await publishItem(request.scope, request.params.id),
  }));

  app.put<Params>('/items/:id/unpublish', async (request) => ({
    data: await unpublishItem(request.scope, request.params.id),
  }));

  for (const action of ['publish', 'unpublish', 'destroy'] as const satisfies BulkAction[]) {
    app.post<{ Body: Static<typeof BulkItemsBody> }>(
      `/items/bulk/${action}`,
      {
        schema: { body: BulkItemsBody },
        config: { resourceType: `item_bulk_${action}_operation`, asyncJob: true },
      },
      async (request, reply) => {
        const ids = request.body.data.relationships.items.data.map((item) => item.id);
        const result = await bulkItems(request.scope, action, ids);
        return sendResult(deps, request, reply, 200, result);
      },
    );
  }

  app.get<Params>('/items/:id/versions', async (request) => {
    const page = ((request.query as RawQuery).page ?? {}) as RawQuery;
    const { data, total } = await listVersions(request.scope, request.params.id, {
      offset: integer(page.offset, 'page[offset]') ?? 0,
      limit: Math.min(integer(page.limit, 'page[limit]') ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT),
    });
    return { data, meta: { total_count: total } };
  });

  app.get<Params>('/versions/:id', async (request) => ({
    data: await findVersion(request.scope, request.params.id),
  }));

  app.post<Params>(
    '/versions/:id/restore',
    { config: { asyncJob: true } },
    async (request, reply) => {
      const data = await restoreVersion(request.scope, creatorOf(request), request.params.id);
      return sendResult(deps, request, reply, 200, { data });
    },
  );
}
