import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ItemTypeInput } from '../../domain/item-types/attributes.ts';
import { createItemType } from '../../domain/item-types/create-item-type.ts';
import { destroyItemType } from '../../domain/item-types/destroy-item-type.ts';
import { duplicateItemType } from '../../domain/item-types/duplicate-item-type.ts';
import { referencingItemTypes } from '../../domain/item-types/read-item-types.ts';
import { updateItemType } from '../../domain/item-types/update-item-type.ts';
import { findItemType, listItemTypes } from '../../domain/schema/models.ts';
import { presentItemType } from '../../presenters/item-type.ts';
import { presentKept, presentKeptList } from '../../presenters/kept.ts';
import { presentMenuItem } from '../../presenters/menu-item.ts';
import { relationshipIds } from '../jsonapi.ts';
import { sendResult } from '../respond.ts';
import { ItemTypeDocument, ItemTypeList } from '../responses/schema.ts';
import { OrJob } from '../schemas/documents.ts';
import {
  CreateItemTypeBody,
  CreateItemTypeQuery,
  DestroyItemTypeQuery,
  UpdateItemTypeBody,
} from '../schemas/item-type.ts';
import type { AppDeps } from '../types.ts';

type Params = { Params: { id: string } };
type CreateBody = Static<typeof CreateItemTypeBody>;
type UpdateBody = Static<typeof UpdateItemTypeBody>;

function toInput(body: CreateBody | UpdateBody | undefined, includeId: boolean): ItemTypeInput {
  const data = body?.data;
  return {
    id: includeId ? data?.id : undefined,
    attributes: data?.attributes ?? {},
    relationships: relationshipIds(data?.relationships),
    meta: (data?.meta as ItemTypeInput['meta'] | undefined) ?? {},
  };
}

export async function itemTypeRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // Each model write is one change, which checks the token's access version itself: the
  // request need not read its token first (plugins/assumed-token.ts).
  // `modelWrite` for a request whose body is an `item_type` document.
  const modelChange = { permission: 'can_edit_schema', checksTokenInChange: true } as const;
  const modelWrite = { ...modelChange, resourceType: 'item_type' } as const;

  app.get('/item-types', { schema: { response: { 200: ItemTypeList } } }, async (request) => ({
    data: presentKeptList(await listItemTypes(request.scope), presentItemType),
  }));

  app.get<Params>(
    '/item-types/:id',
    { schema: { response: { 200: ItemTypeDocument } } },
    async (request) => ({
      data: presentKept(await findItemType(request.scope, request.params.id), presentItemType),
    }),
  );

  app.get<Params>(
    '/item-types/:id/referencing',
    { schema: { response: { 200: ItemTypeList } } },
    async (request) => ({
      data: (await referencingItemTypes(request.scope, request.params.id)).map(presentItemType),
    }),
  );

  app.post<{ Body: CreateBody; Querystring: Static<typeof CreateItemTypeQuery> }>(
    '/item-types',
    {
      schema: {
        body: CreateItemTypeBody,
        querystring: CreateItemTypeQuery,
        response: { 201: ItemTypeDocument },
      },
      config: modelWrite,
    },
    async (request, reply) => {
      const query = request.query;
      const result = await createItemType(request.scope, toInput(request.body, true), {
        skipMenuItemCreation: query.skip_menu_item_creation === 'true',
        menuItemId: query.menu_item_id,
        schemaMenuItemId: query.schema_menu_item_id,
      });
      const included = result.menuItem
        ? [presentMenuItem({ row: result.menuItem, childIds: [] })]
        : undefined;
      const data = presentItemType(result.itemType);
      return reply.status(201).send({ data, ...(included ? { included } : {}) });
    },
  );

  app.put<Params & { Body: UpdateBody }>(
    '/item-types/:id',
    {
      schema: { body: UpdateItemTypeBody, response: OrJob(200, ItemTypeDocument) },
      config: { ...modelWrite, asyncJob: true },
    },
    async (request, reply) => {
      const data = presentItemType(
        await updateItemType(request.scope, request.params.id, toInput(request.body, false)),
      );
      return sendResult(deps, request, reply, 200, { data });
    },
  );

  app.post<Params>(
    '/item-types/:id/duplicate',
    { schema: { response: { 201: ItemTypeDocument } }, config: modelChange },
    async (request, reply) => {
      const data = presentItemType(await duplicateItemType(request.scope, request.params.id));
      return reply.status(201).send({ data });
    },
  );

  app.delete<Params & { Querystring: Static<typeof DestroyItemTypeQuery> }>(
    '/item-types/:id',
    {
      schema: { querystring: DestroyItemTypeQuery, response: OrJob(200, ItemTypeDocument) },
      config: { ...modelChange, asyncJob: true },
    },
    async (request, reply) => {
      const data = presentItemType(
        await destroyItemType(request.scope, request.params.id, {
          skipMenuItemsDeletion: request.query.skip_menu_items_deletion === 'true',
        }),
      );
      return sendResult(deps, request, reply, 200, { data });
    },
  );
}
